import type { RecoveryCodesResponse, TotpCodeRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Ten new recovery codes (the old ones stop working), with a current code. */
export function regenerateRecoveryCodes(body: TotpCodeRequest): Promise<RecoveryCodesResponse> {
  return apiRequest<RecoveryCodesResponse>("/auth/mfa/recovery-codes", { method: "POST", body });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.auth.secondFactor }),
  });
}
