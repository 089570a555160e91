import { Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { PageLoader } from "../../components/page-loader";
import { ServerConnectionErrorPage } from "../../features/connection/components/server-connection-error-page";
import { useHealth } from "../../lib/health";
import { useNotificationWatch } from "../notification-watch";
import { useSessionWatch } from "../session-watch";

/** Spec section 4: these pages work without the API's data, so they stay while offline. */
// The spec's three pages, and the API Debug page: it is for finding out why the API cannot be reached.
const SHOWN_WHILE_OFFLINE = new Set(["/login", "/set-password", "/verify", "/sso", "/debug"]);

export function RootLayout() {
  useSessionWatch();
  useNotificationWatch();
  const { isOnline } = useHealth();
  const { pathname } = useLocation();
  const replaced = !isOnline && !SHOWN_WHILE_OFFLINE.has(pathname);
  return replaced ? (
    <ServerConnectionErrorPage />
  ) : (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
