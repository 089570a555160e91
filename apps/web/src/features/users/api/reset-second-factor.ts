import type { MessageBody } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** Removes the account's authenticator and recovery codes; its owner is told by e-mail. */
export function resetSecondFactor(id: number): Promise<MessageBody> {
  return apiRequest<MessageBody>(`/users/${id}/mfa/reset`, { method: "POST" });
}

export function useResetSecondFactor(id: number) {
  return useMutation({ mutationFn: () => resetSecondFactor(id) });
}
