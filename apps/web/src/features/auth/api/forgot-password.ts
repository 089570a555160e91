import type { ForgotPasswordRequest, MessageBody } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function forgotPassword(email: string): Promise<MessageBody> {
  const body: ForgotPasswordRequest = { email };
  return apiRequest<MessageBody>("/auth/forgot-password", { method: "POST", body, auth: false });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
