import { lazy } from "react";
import { Navigate, type RouteObject, useLocation } from "react-router";
import { NotFoundPage } from "../components/not-found-page";
import { RouteErrorView } from "../components/route-error-view";
import { UnauthorizedPage } from "../components/unauthorized-page";
import { ACCESS, homePath } from "../lib/route-access";
import { TWO_STEP_PATH } from "../lib/api-client";
import { useCurrentUser } from "../lib/auth-store";
import { lazyComponent } from "../lib/lazy-component";
import { LoginPage as LoginPageCode } from "../features/auth/components/login-page";
import { AdminLayout } from "./layouts/admin-layout";
import { DashboardLayout } from "./layouts/dashboard-layout";
import { PublicLayout } from "./layouts/public-layout";
import { RootLayout } from "./layouts/root-layout";
import { RouteGuard } from "./route-guard";
import { SchoolDashboardGuard } from "./school-dashboard-guard";

// Pages load on demand so the first screen only pays for the shell. The sign-in page, the
// first screen of most visits, is in the first bundle: as a lazy chunk it waited for the
// bundle to run before its own fetch began (issue 29).
const DashboardPage = lazyComponent(() =>
  import("../features/dashboard/components/dashboard-page").then((m) => m.DashboardPage),
);
const SchoolDashboardPage = lazyComponent(() =>
  import("../features/dashboard/components/school-dashboard-page").then((m) => m.SchoolDashboardPage),
);


/**
 * The sign-in page fetches the dashboards' code once someone starts signing in (a field
 * focused or typed in), so it is here when the sign-in answer comes back; never on the page's
 * own load, which stays light (issue 29: /login within 350 KB). A failed preload is only a
 * missed head start: the route loads (and reports) it again.
 */
function preloadSignedInPages(): void {
  DashboardPage.preload();
  SchoolDashboardPage.preload();
}

function LoginPage() {
  return <LoginPageCode onSignInIntent={preloadSignedInPages} />;
}
const SetPasswordPage = lazy(() =>
  import("../features/auth/components/set-password-page").then((m) => ({ default: m.SetPasswordPage })),
);
const SsoPage = lazy(() => import("../features/auth/components/sso-page").then((m) => ({ default: m.SsoPage })));
const VerifyEmailPage = lazy(() =>
  import("../features/auth/components/verify-email-page").then((m) => ({ default: m.VerifyEmailPage })),
);
const UserManagementPage = lazy(() =>
  import("../features/users/components/user-management-page").then((m) => ({
    default: m.UserManagementPage,
  })),
);
const AdminSettingsPage = lazy(() =>
  import("../features/settings/components/admin-settings-page").then((m) => ({ default: m.AdminSettingsPage })),
);
const FlagUploaderPage = lazy(() =>
  import("../features/flags/components/flag-uploader-page").then((m) => ({ default: m.FlagUploaderPage })),
);
const AdminAreaPage = lazy(() =>
  import("../features/admin/components/admin-area-page").then((m) => ({ default: m.AdminAreaPage })),
);
const AuditPage = lazy(() =>
  import("../features/audit/components/audit-page").then((m) => ({ default: m.AuditPage })),
);
const TwoStepPage = lazy(() =>
  import("../features/security/components/two-step-page").then((m) => ({ default: m.TwoStepPage })),
);
const AlertsPage = lazy(() =>
  import("../features/alerts/components/alerts-page").then((m) => ({ default: m.AlertsPage })),
);
const ApiDebugPage = lazy(() =>
  import("../features/debug/components/api-debug-page").then((m) => ({ default: m.ApiDebugPage })),
);

function HomeRedirect() {
  const user = useCurrentUser();
  // A school_user's home is their school page; /dashboard would only bounce them to /unauthorized.
  return <Navigate to={user ? homePath(user) : "/dashboard"} replace />;
}

/** A redirect that keeps the query and hash (/settings?import=1 opens the import too). */
function KeepQueryRedirect({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={`${to}${search}${hash}`} replace />;
}

const FLAG_UPLOADER_VISITORS = { roles: ["admin", "super_admin"] } as const;

/** Spec section 2 route table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorView />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: "/login", element: <LoginPage /> },
          { path: "/set-password", element: <SetPasswordPage /> },
          { path: "/verify", element: <VerifyEmailPage /> },
          { path: "/sso", element: <SsoPage /> },
        ],
      },
      {
        path: "/",
        element: (
          <RouteGuard rule={ACCESS.signedIn}>
            <HomeRedirect />
          </RouteGuard>
        ),
      },
      {
        element: <RouteGuard rule={ACCESS.dashboard} />,
        children: [
          { element: <DashboardLayout />, children: [{ path: "/dashboard", element: <DashboardPage /> }] },
        ],
      },
      {
        path: "/school/:schoolId/dashboard",
        element: <SchoolDashboardGuard />,
        children: [{ element: <DashboardLayout />, children: [{ index: true, element: <SchoolDashboardPage /> }] }],
      },
      {
        // Issue 30: the call list is every role's; the server keeps each to their scope.
        element: <RouteGuard rule={ACCESS.signedIn} />,
        children: [{ element: <DashboardLayout />, children: [{ path: "/alerts", element: <AlertsPage /> }] }],
      },
      {
        element: <RouteGuard rule={ACCESS.users} />,
        children: [{ element: <AdminLayout />, children: [{ path: "/users", element: <UserManagementPage /> }] }],
      },
      {
        element: <RouteGuard rule={ACCESS.adminSettings} />,
        children: [
          { element: <AdminLayout />, children: [{ path: "/admin/settings", element: <AdminSettingsPage /> }] },
        ],
      },
      {
        // Admins are let in to read the page's own "Only Super Admins…" refusal (spec); the page
        // checks ACCESS.flagUploader itself. Other roles go to /unauthorized.
        element: <RouteGuard rule={FLAG_UPLOADER_VISITORS} />,
        children: [
          { element: <AdminLayout />, children: [{ path: "/admin/flag-uploader", element: <FlagUploaderPage /> }] },
        ],
      },
      {
        element: <RouteGuard rule={ACCESS.adminArea} />,
        children: [
          {
            element: <AdminLayout />,
            children: [
              { path: "/admin/audit", element: <AuditPage /> },
              { path: "/admin/*", element: <AdminAreaPage /> },
            ],
          },
        ],
      },
      // Issue 29: one user screen, at /users; the addresses people guess for it lead there.
      { path: "/admin/users", element: <Navigate to="/users" replace /> },
      { path: "/settings", element: <KeepQueryRedirect to="/admin/settings" /> },
      {
        // Every signed-in person's own two-step sign-in; admins who must enrol are sent here.
        element: <RouteGuard rule={ACCESS.signedIn} />,
        children: [{ element: <PublicLayout />, children: [{ path: TWO_STEP_PATH, element: <TwoStepPage /> }] }],
      },
      { path: "/unauthorized", element: <UnauthorizedPage /> },
      { path: "/debug", element: <ApiDebugPage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];
