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

/** Sections 3-6 until their screens are built: a heading and what will be managed there. */
const PLANNED_SECTIONS = [
  { title: "School Data Visibility", text: "Per-cohort visibility for school and district users will be managed here." },
  { title: "Demo school settings", text: "Settings of the demo school will be managed here." },
  { title: "School Feature Settings", text: "Feature switches for all schools or per school will be managed here." },
  { title: "System Settings", text: "System settings will be available in a future release." },
] as const;

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
      {PLANNED_SECTIONS.map(({ title, text }) => (
        <SettingsSection key={title} title={title}>
          <Text size="sm" c="dimmed">
            {text}
          </Text>
        </SettingsSection>
      ))}
    </Stack>
  );
}
