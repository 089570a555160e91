import { Badge, Group, Text } from "@mantine/core";
import { type SessionUser, headerRoleLabel } from "@tally/contract";

/** Current user's e-mail and role label, shown in both headers. */
export function CurrentUserBadge({ user }: { user: SessionUser }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" data-testid="header-user-email">
        {user.email}
      </Text>
      <Badge variant="light" color="blue" data-testid="header-role-label">
        {headerRoleLabel(user.role)}
      </Badge>
    </Group>
  );
}
