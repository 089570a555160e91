import type { SignedInResponse, OidcExchangeRequest } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { clearSessionMessage } from "../../../lib/session-message";

/** The one-time code a single sign-on ends with, for the usual token pair (in the body, never a URL). */
export function exchangeSsoCode(code: string): Promise<SignedInResponse> {
  const body: OidcExchangeRequest = { code };
  return apiRequest<SignedInResponse>("/auth/oidc/exchange", { method: "POST", body, auth: false });
}

/** Exchanges the code and stores token, refresh token and user, as the password sign-in does. */
export function useExchangeSsoCode() {
  return useMutation({
    mutationFn: exchangeSsoCode,
    onSuccess: (reply) => {
      clearSessionMessage();
      authStore.set({ token: reply.token, refreshToken: reply.refreshToken, user: reply.user });
    },
  });
}
