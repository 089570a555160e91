import type { MessageBody } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function forgotPassword(email: string): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/forgot-password", { method: "POST", body: { email }, auth: false });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
