import { Alert, Button, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { isAdminRole } from "@tally/contract";
import type { ReactNode } from "react";
import { useCurrentUser } from "../../../lib/auth-store";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { CohortManagementSection } from "./cohort-management-section";
import { DemoSettingsSection } from "./demo-settings-section";
import { FeatureSettingsSection } from "./feature-settings-section";
import { SystemSettingsSection } from "./system-settings-section";
import { VisibilitySection } from "./visibility-section";

interface Props {
  /** Section 1, the user list; the app composes it in so this feature does not import another. */
  userManagement?: ReactNode;
}

/** Spec section 2 "Admin Settings". Each section is its own component. */
export function AdminSettingsPage({ userManagement }: Props) {
  const viewer = useCurrentUser();
  const allowed = viewer !== null && isAdminRole(viewer.role);
  // The page waits for the cohorts every section refers to (cached for the sections).
  const cohorts = useCohorts(null, allowed);

  if (!allowed) {
    return <Text role="alert">You do not have permission to access admin settings</Text>;
  }
  if (cohorts.isPending) {
    return (
      <Stack gap="md">
        <Title order={1}>Admin Settings</Title>
        <Group justify="center" py="xl" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading settings...</Text>
        </Group>
      </Stack>
    );
  }
  if (cohorts.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <Title order={1}>Admin Settings</Title>
        <Alert color="red" role="alert">
          Failed to load settings data. Please try again.
        </Alert>
        <Button onClick={() => void cohorts.refetch()} loading={cohorts.isFetching}>
          Retry
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Admin Settings</Title>
      {userManagement}
      <CohortManagementSection />
      <VisibilitySection />
      <DemoSettingsSection />
      <FeatureSettingsSection />
      <SystemSettingsSection />
    </Stack>
  );
}
