import type { LoginResponse, OidcExchangeRequest } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { clearSessionMessage } from "../../../lib/session-message";

/**
 * The one-time code a single sign-on ends with, for the usual token pair (in the body, never a
 * URL); or, when the provider's sign-in was one factor and the account has two-step sign-in,
 * the challenge its code answers, as after a password.
 */
export function exchangeSsoCode(code: string): Promise<LoginResponse> {
  const body: OidcExchangeRequest = { code };
  return apiRequest<LoginResponse>("/auth/oidc/exchange", { method: "POST", body, auth: false });
}

/** Exchanges the code and stores token, refresh token and user, as the password sign-in does. */
export function useExchangeSsoCode() {
  return useMutation({
    mutationFn: exchangeSsoCode,
    onSuccess: (reply) => {
      // The tokens come with the second step's code (useVerifySecondFactor stores them then).
      if ("mfaRequired" in reply) return;
      clearSessionMessage();
      authStore.set({ token: reply.token, refreshToken: reply.refreshToken, user: reply.user });
    },
  });
}
