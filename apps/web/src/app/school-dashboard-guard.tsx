import { demoOpenTo } from "@tally/contract";
import { Navigate, Outlet, useParams } from "react-router";
import { PageLoader } from "../components/page-loader";
import { useDemoSettings } from "../lib/api/get-demo-settings";
import { ACCESS, decideAccess } from "../lib/route-access";
import { useCurrentUser } from "../lib/auth-store";
import { RouteGuard } from "./route-guard";

/**
 * /school/:schoolId/dashboard: a school user's own school, or the demo school's dashboard for
 * the roles the demo settings let in (admins: adminAccess; school and district users:
 * schoolAccess). The server enforces the same rule; this only decides what to render.
 */
export function SchoolDashboardGuard() {
  const user = useCurrentUser();
  const params = useParams();
  const ownSchool = decideAccess(user, ACCESS.schoolDashboard, params) === "allow";
  const demo = useDemoSettings(user !== null && !ownSchool);
  if (!user || ownSchool) return <RouteGuard rule={ACCESS.schoolDashboard} />;
  if (demo.isPending && demo.fetchStatus !== "idle") return <PageLoader />;
  const isDemo = demo.data !== undefined && params.schoolId === String(demo.data.schoolId);
  if (isDemo && demoOpenTo(user.role, demo.data)) return <Outlet />;
  return <Navigate to="/unauthorized" replace />;
}
