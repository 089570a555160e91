import type { MessageBody, ReauthRequest } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** POST /auth/mfa/reauth: the password or a current code again, so this sign-in may add a second factor for a few minutes. */
export function reauthenticate(body: ReauthRequest): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/mfa/reauth", { method: "POST", body });
}

export function useReauthenticate() {
  return useMutation({ mutationFn: reauthenticate });
}
