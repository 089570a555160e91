import type { MessageBody, SetPasswordRequest } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function setPassword(body: SetPasswordRequest): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/set-password", { method: "POST", body, auth: false });
}

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
