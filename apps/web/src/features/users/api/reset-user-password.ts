import type { AdminResetPasswordRequest, AdminResetPasswordResponse } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** With a password it is set at once; without one the owner is e-mailed a reset link. */
export function resetUserPassword(id: number, password?: string) {
  const body: AdminResetPasswordRequest = password === undefined ? {} : { password };
  return apiRequest<AdminResetPasswordResponse>(`/users/${id}/reset-password`, { method: "POST", body });
}

export function useResetUserPassword(id: number) {
  return useMutation({ mutationFn: (password?: string) => resetUserPassword(id, password) });
}
