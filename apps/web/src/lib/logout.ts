import type { LogoutRequest, MessageBody } from "@tally/contract";
import { apiRequest } from "./api-client";
import { authStore } from "./auth-store";
import { queryClient } from "./query-client";

/** POST /auth/logout (best effort) and forget the session and every cached reply. */
export async function logout(): Promise<void> {
  const { refreshToken } = authStore.get();
  try {
    const body: LogoutRequest = refreshToken ? { refreshToken } : {};
    await apiRequest<MessageBody>("/auth/logout", {
      method: "POST",
      body,
      refreshOnUnauthorized: false,
      timeoutMs: 5_000,
    });
  } catch {
    // The local session is cleared either way; the server expires the token on its own.
  } finally {
    authStore.clear();
    queryClient.clear();
  }
}

/**
 * Forgets the session at once and tells the server in the background, for when it may be
 * down (the Server Connection Error page): logout() reads the tokens before its first await,
 * so clearing right after it starts still revokes the right refresh token if the call lands.
 */
export function logoutNow(): void {
  void logout();
  authStore.clear();
  queryClient.clear();
}
