import { useMutation } from "@tanstack/react-query";
import { checkHealth, type HealthCheckResult } from "../../../lib/health";

export function getHealthCheck(): Promise<HealthCheckResult> {
  return checkHealth();
}

/** A mutation because the diagnostics run only when asked, each click afresh. */
export function useHealthCheckDiagnostics() {
  return useMutation({ mutationFn: getHealthCheck });
}
