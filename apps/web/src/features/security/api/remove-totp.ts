import type { MessageBody, TotpCodeRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Turns two-step sign-in off, with a current code. */
export function removeTotp(body: TotpCodeRequest): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/mfa/totp", { method: "DELETE", body });
}

export function useRemoveTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.auth.secondFactor }),
  });
}
