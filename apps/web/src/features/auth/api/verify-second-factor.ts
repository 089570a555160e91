import type { MfaVerifyRequest, SignedInResponse } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { clearSessionMessage } from "../../../lib/session-message";

/** POST /auth/mfa/verify: the sign-in's challenge and a code from the authenticator (or a recovery code). */
export function verifySecondFactor(body: MfaVerifyRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>("/auth/mfa/verify", { method: "POST", body, auth: false });
}

/** Finishes the sign-in and stores token, refresh token and user. */
export function useVerifySecondFactor() {
  return useMutation({
    mutationFn: verifySecondFactor,
    onSuccess: (reply) => {
      clearSessionMessage();
      authStore.set({ token: reply.token, refreshToken: reply.refreshToken, user: reply.user });
    },
  });
}
