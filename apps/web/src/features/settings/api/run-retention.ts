import type { ErasureCounts } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function runRetention() {
  return apiRequest<ErasureCounts>("/settings/privacy/retention-run", { method: "POST" });
}

export function useRunRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runRetention,
    // Students are gone: every list, count and the preview itself may be stale.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
