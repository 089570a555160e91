import { LIMITS, MESSAGES } from "@tally/contract";
import { useEffect } from "react";
import { getProfile } from "../features/auth/api/get-profile";
import { ApiError, endSession, refreshSession } from "../lib/api-client";
import { authStore, useAuth } from "../lib/auth-store";
import { suspectApiDown } from "../lib/health";

/**
 * While signed in: check the profile every 10 s (keeps role and permissions current; a 401
 * that the client could not recover from ends the session) and refresh the token every 10 min.
 * Checks are chained, not overlapped, so a slow server does not pile up requests.
 */
export function useSessionWatch(): void {
  const { token } = useAuth();
  const signedIn = Boolean(token);

  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();

    const check = async () => {
      try {
        const { user } = await getProfile(controller.signal);
        if (!stopped && JSON.stringify(user) !== JSON.stringify(authStore.get().user)) {
          authStore.set({ user });
        }
      } catch (error) {
        // No answer at all (status 0): the server may be down, which the health check confirms.
        if (error instanceof ApiError && error.status === 0) suspectApiDown();
        if (error instanceof ApiError && error.status === 401) {
          endSession(
            error.code === "SESSION_VERSION_MISMATCH"
              ? MESSAGES.sessionVersionMismatch
              : MESSAGES.sessionExpired,
          );
        }
      }
      if (!stopped) timer = setTimeout(() => void check(), LIMITS.profileCheckIntervalMs);
    };
    timer = setTimeout(() => void check(), LIMITS.profileCheckIntervalMs);

    const refresher = setInterval(() => {
      refreshSession().catch(() => {
        // A refused refresh has ended the session already; a network failure is retried later.
      });
    }, LIMITS.tokenRefreshIntervalMs);

    return () => {
      stopped = true;
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
      clearInterval(refresher);
    };
  }, [signedIn]);
}
