import { Alert, Button, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { isAdminRole } from "@tally/contract";
import type { ReactNode } from "react";
import { useCurrentUser } from "../../../lib/auth-store";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { SettingsSection } from "./settings-section";

interface Props {
  /** Section 1, the user list; the app composes it in so this feature does not import another. */
  userManagement?: ReactNode;
}

/** Spec section 2 "Admin Settings". Sections 2-6 are filled in by later work. */
export function AdminSettingsPage({ userManagement }: Props) {
  const viewer = useCurrentUser();
  const allowed = viewer !== null && isAdminRole(viewer.role);
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
      <SettingsSection title="Cohort & Weekly Data Management">
        <Text size="sm" c="dimmed">
          {cohorts.data.length} cohorts on record. Weekly data import is being built.
        </Text>
        <Group>
          <Button disabled>Import Weekly Data for Cohort</Button>
        </Group>
      </SettingsSection>
      <SettingsSection title="School Data Visibility">
        <Text size="sm" c="dimmed">
          Per-cohort visibility for school and district users will be managed here.
        </Text>
      </SettingsSection>
      <SettingsSection title="Demo school settings">
        <Text size="sm" c="dimmed">
          Settings of the demo school will be managed here.
        </Text>
      </SettingsSection>
      <SettingsSection title="School Feature Settings">
        <Text size="sm" c="dimmed">
          Feature switches for all schools or per school will be managed here.
        </Text>
      </SettingsSection>
      <SettingsSection title="System Settings">
        <Text size="sm" c="dimmed">
          System settings will be available in a future release.
        </Text>
      </SettingsSection>
    </Stack>
  );
}
