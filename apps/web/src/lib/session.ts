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
