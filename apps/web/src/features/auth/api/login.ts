import type { LoginRequest, LoginResponse } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { clearSessionMessage } from "../../../lib/session-message";

export function login(body: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>("/auth/login", { method: "POST", body, auth: false });
}

/** Signs in and stores token, refresh token and user. */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (reply) => {
      // An account with a second factor gets a challenge first; the tokens come with the code.
      if ("mfaRequired" in reply) return;
      clearSessionMessage();
      authStore.set({ token: reply.token, refreshToken: reply.refreshToken, user: reply.user });
    },
  });
}
