import type { RecoveryCodesResponse, TotpCodeRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Turns two-step sign-in on with the first code; answers the recovery codes, shown this once. */
export function confirmTotp(body: TotpCodeRequest): Promise<RecoveryCodesResponse> {
  return apiRequest<RecoveryCodesResponse>("/auth/mfa/totp/confirm", { method: "POST", body });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotp,
    // Not awaited: the caller's onSuccess must get the recovery codes before the refreshed
    // status (now "on") takes the set-up form, and with it that callback, away.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.auth.secondFactor });
    },
  });
}
