import type { MessageBody } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** With a password it is set at once; without one the owner is e-mailed a reset link. */
export function resetUserPassword(id: number, password?: string) {
  return apiRequest<MessageBody>(`/users/${id}/reset-password`, {
    method: "POST",
    body: password === undefined ? {} : { password },
  });
}

export function useResetUserPassword(id: number) {
  return useMutation({ mutationFn: (password?: string) => resetUserPassword(id, password) });
}
