import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refreshSession } from "../lib/api-client";
import { authStore, useAuth } from "../lib/auth-store";
import { healthStore, suspectApiDown } from "../lib/health";
import { refreshAlertsOnChange } from "../lib/notifications/alerts-changed";
import { handleNotification } from "../lib/notifications/force-logout";
import { createNotificationClient } from "../lib/notifications/notification-client";

/**
 * While signed in, this tab listens to the server's notifications. Signing out (here, or in
 * another tab through the shared storage) clears the token, which closes the stream; so does
 * leaving the page, so a closed last tab holds no connection open on the server.
 */
export function useNotificationWatch(): void {
  const { token } = useAuth();
  const signedIn = Boolean(token);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!signedIn) return;
    // The token is read at each connect: a refresh between reconnects is picked up.
    const client = createNotificationClient({
      getToken: () => authStore.get().token,
      onNotification: (notification) => {
        handleNotification(notification);
        refreshAlertsOnChange(queryClient, notification);
      },
      // A stream ended at its token's expiry reconnects with a fresh token.
      refreshToken: (staleToken) => refreshSession(staleToken),
      // A dropped stream is often the first sign that the server went away.
      onStateChange: (state) => {
        if (state === "waiting-to-reconnect") suspectApiDown();
      },
    });
    client.start();
    const onPageHide = () => client.stop();
    // Back from the back-forward cache: the page lives again, so does its stream.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) client.start();
    };
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    // A server restart outlasts the five reconnects; once it answers again the stream is worth
    // another try (with fresh attempts) rather than polling for the rest of the day.
    let wasOnline = healthStore.get().isOnline;
    const unsubscribeHealth = healthStore.subscribe(() => {
      const { isOnline } = healthStore.get();
      if (isOnline && !wasOnline && (client.state() === "polling" || client.state() === "waiting-to-reconnect")) {
        client.stop();
        client.start();
      }
      wasOnline = isOnline;
    });
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      unsubscribeHealth();
      client.stop();
    };
  }, [signedIn, queryClient]);
}
