import { Text } from "@mantine/core";
import { useParams } from "react-router";
import { useCurrentUser } from "../../../lib/auth-store";
import { useSchools } from "../../../lib/api/get-schools";
import { StudentDashboard } from "./student-dashboard";

/** Used when the user's school cannot be looked up (spec: a default demo school name). */
export const DEFAULT_SCHOOL_NAME = "Demo High School";

/** /school/:schoolId/dashboard; the route guard has already matched the user's own school. */
export function SchoolDashboardPage() {
  const user = useCurrentUser();
  const { schoolId } = useParams();
  const allowed = !!user && user.role === "school_user" && String(user.school_id) === schoolId;
  const schools = useSchools(allowed);
  if (!user || !allowed) {
    return <Text>You do not have permission to view this school&apos;s data</Text>;
  }
  const found = schools.data?.find((s) => s.id === user.school_id);
  // While the lookup runs the session's own school name stands in, so the title does not jump.
  const schoolName = schools.isPending ? (user.school_name ?? "School") : (found?.name ?? DEFAULT_SCHOOL_NAME);
  return (
    <StudentDashboard
      user={user}
      title={`${schoolName} Dashboard`}
      subtitle="Student and Attendance Overview"
      showSchoolFilter={false}
      showSchoolCard={false}
    />
  );
}
