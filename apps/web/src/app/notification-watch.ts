import { useEffect } from "react";
import { authStore, useAuth } from "../lib/auth-store";
import { suspectApiDown } from "../lib/health";
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

  useEffect(() => {
    if (!signedIn) return;
    // The token is read at each connect: a refresh between reconnects is picked up.
    const client = createNotificationClient({
      getToken: () => authStore.get().token,
      onNotification: handleNotification,
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
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      client.stop();
    };
  }, [signedIn]);
}
