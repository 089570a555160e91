import { Stack, Text, Title } from "@mantine/core";

export function AdminSettingsPage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Admin Settings</Title>
      <Text>Cohort visibility, demo and feature settings, and weekly data import.</Text>
    </Stack>
  );
}
