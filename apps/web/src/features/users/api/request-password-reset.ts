import type { MessageBody } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** E-mails the account's owner a link to choose a new password. */
export function requestPasswordReset(id: number) {
  return apiRequest<MessageBody>(`/auth/request-reset/${id}`, { method: "POST" });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
