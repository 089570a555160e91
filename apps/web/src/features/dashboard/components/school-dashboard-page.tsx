import { Text } from "@mantine/core";
import { demoOpenTo } from "@tally/contract";
import { useParams } from "react-router";
import { useCurrentUser } from "../../../lib/auth-store";
import { useDemoSettings } from "../../../lib/api/get-demo-settings";
import { useSchools } from "../../../lib/api/get-schools";
import { DashboardLoading, StudentDashboard } from "./student-dashboard";

/** Used when the user's school cannot be looked up (spec: a default demo school name). */
export const DEFAULT_SCHOOL_NAME = "Demo High School";

/**
 * /school/:schoolId/dashboard. The route guard has already matched the user's own school, or
 * let them open the demo school's dashboard (demo settings): then every request names it and
 * the server decides what it shows.
 */
export function SchoolDashboardPage() {
  const user = useCurrentUser();
  const { schoolId } = useParams();
  const own = !!user && user.role === "school_user" && String(user.school_id) === schoolId;
  const schools = useSchools(own);
  const demo = useDemoSettings(!!user && !own);
  if (!own && demo.isPending && demo.fetchStatus !== "idle") return <DashboardLoading />;
  const demoId = demo.data && String(demo.data.schoolId) === schoolId ? demo.data.schoolId : undefined;
  if (!user || (!own && (demoId === undefined || !demo.data || !demoOpenTo(user.role, demo.data)))) {
    return <Text>You do not have permission to view this school&apos;s data</Text>;
  }
  if (!own) {
    return (
      <StudentDashboard
        user={user}
        title={`${DEFAULT_SCHOOL_NAME} Dashboard`}
        subtitle="Student and Attendance Overview (demo school, read-only)"
        showSchoolFilter={false}
        showSchoolCard={false}
        fixedSchoolId={demoId}
      />
    );
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
