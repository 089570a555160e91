import { Text } from "@mantine/core";
import { useCurrentUser } from "../../../lib/auth-store";
import { AdminDashboard } from "./admin-dashboard";
import { DistrictDashboard } from "./district-dashboard";

/** /dashboard: district_user sees the District Dashboard, admins the admin dashboard. */
export function DashboardPage() {
  const user = useCurrentUser();
  if (user?.role === "district_user") return <DistrictDashboard user={user} />;
  if (user?.role === "admin" || user?.role === "super_admin") return <AdminDashboard />;
  return <Text>You do not have permission to view this dashboard</Text>;
}
