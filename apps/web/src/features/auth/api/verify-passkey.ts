import type { PasskeyVerifyRequest, SignedInResponse } from "@tally/contract";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { clearSessionMessage } from "../../../lib/session-message";
import { getPasskeyOptions } from "./get-passkey-options";

/** POST /auth/mfa/passkey/verify: the sign-in's challenge and the passkey's signed answer. */
export function verifyPasskey(body: PasskeyVerifyRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>("/auth/mfa/passkey/verify", { method: "POST", body, auth: false });
}

/** Finishes the sign-in with a passkey: the server's options, the browser's prompt, the check; stores the session. */
export function useSignInWithPasskey() {
  return useMutation({
    mutationFn: async (challenge: string) => {
      // The WebAuthn library is fetched only by those who use a passkey, not with the sign-in page.
      const [options, { startAuthentication }] = await Promise.all([getPasskeyOptions({ challenge }), import("@simplewebauthn/browser")]);
      // The contract passes the library's option fields through untouched.
      const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      return verifyPasskey({ challenge, response: response as unknown as PasskeyVerifyRequest["response"] });
    },
    onSuccess: (reply) => {
      clearSessionMessage();
      authStore.set({ token: reply.token, refreshToken: reply.refreshToken, user: reply.user });
    },
  });
}
