import type { MessageBody, PasskeyRegisterRequest } from "@tally/contract";
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { getPasskeyRegistrationOptions } from "./passkey-registration-options";

/** POST /auth/mfa/passkey/register: the new passkey's answer to the registration options. */
export function registerPasskey(body: PasskeyRegisterRequest): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/mfa/passkey/register", { method: "POST", body });
}

/** Adds a passkey: the server's options, the browser's prompt, the server's check. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const options = await getPasskeyRegistrationOptions();
      // The contract passes the library's option fields through untouched.
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return registerPasskey({ response: response as unknown as PasskeyRegisterRequest["response"] });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.auth.secondFactor }),
  });
}
