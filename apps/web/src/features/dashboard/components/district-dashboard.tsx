import { Alert, Button, Stack, Text } from "@mantine/core";
import type { SessionUser } from "@tally/contract";
import { useLogout } from "../../../lib/use-logout";
import { DashboardHeading, StudentDashboard } from "./student-dashboard";

/** District users see their assigned schools; with none they get the notice and a Logout. */
export function DistrictDashboard({ user }: { user: SessionUser }) {
  const logout = useLogout();
  if (user.role !== "district_user") return <Text>You do not have permission to view this dashboard</Text>;
  const schoolCount = user.accessibleSchoolIds.length;
  const subtitle = `${schoolCount} Schools Overview`;
  if (schoolCount === 0) {
    return (
      <Stack gap="md">
        <DashboardHeading title="District Dashboard" subtitle={subtitle} />
        <Alert color="yellow" data-testid="no-schools-notice">
          <Stack gap="sm" align="flex-start">
            <Text>
              <strong>No Schools Available:</strong> You currently don&apos;t have access to any schools in the system.
            </Text>
            <Text>Please contact an administrator to get school access assigned to your account.</Text>
            <Button color="yellow" onClick={() => void logout()}>
              Logout
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  return (
    <StudentDashboard user={user} title="District Dashboard" subtitle={subtitle} showSchoolFilter showSchoolCard />
  );
}
