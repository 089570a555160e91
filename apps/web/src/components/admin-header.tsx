import { Anchor, Button, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import { useCurrentUser } from "../lib/auth-store";
import { useLogout } from "../lib/use-logout";
import { Logo } from "./logo";
import { CurrentUserBadge } from "./current-user-badge";

/** Header of /users and /admin/* (spec section 2, "Admin header and navigation"). */
export function AdminHeader() {
  const user = useCurrentUser();
  const logout = useLogout();
  if (!user) return null;
  return (
    <Group
      component="header"
      justify="space-between"
      px="md"
      py="sm"
      style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
    >
      <Group gap="md">
        <Logo />
        <Text fw={700} fz="lg">
          Tally Admin
        </Text>
        <Anchor component={Link} to="/dashboard" size="sm">
          Back to Dashboard
        </Anchor>
      </Group>
      <Group gap="sm">
        <CurrentUserBadge user={user} />
        <Button variant="outline" onClick={() => void logout()}>
          Logout
        </Button>
      </Group>
    </Group>
  );
}
