import { Text } from "@mantine/core";
import { isAdminRole } from "@tally/contract";
import { useCurrentUser } from "../../../lib/auth-store";
import { StudentDashboard } from "./student-dashboard";

/** Admin and super_admin dashboard over every school (the server hides the demo school and cohort). */
export function AdminDashboard() {
  const user = useCurrentUser();
  if (!user || !isAdminRole(user.role)) return <Text>You do not have permission to view this dashboard</Text>;
  return (
    <StudentDashboard
      user={user}
      title="Admin Dashboard"
      subtitle="Manage students and view analytics"
      showSchoolFilter
      showSchoolCard
    />
  );
}
