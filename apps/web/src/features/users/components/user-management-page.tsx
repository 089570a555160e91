import { Stack, Text, Title } from "@mantine/core";

export function UserManagementPage() {
  return (
    <Stack gap="xs">
      <Title order={1}>User Management</Title>
      <Text>Create users, manage school access and account status.</Text>
    </Stack>
  );
}
