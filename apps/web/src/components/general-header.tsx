import { Button, Group, TextInput } from "@mantine/core";
import { type ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentUser } from "../lib/auth-store";
import { useLogout } from "../lib/use-logout";
import { Logo } from "./logo";
import { UserBadge } from "./user-badge";

export const SEARCH_PLACEHOLDER = "Search by student name, cohort, team, school";

interface Props {
  search?: string;
  onSearchChange?: (value: string) => void;
  /** Extra actions such as the dashboard's Export button. */
  actions?: ReactNode;
}

/** Header of the dashboard pages (spec section 2, "Header (general dashboard)"). */
export function GeneralHeader({ search, onSearchChange, actions }: Props) {
  const user = useCurrentUser();
  const logout = useLogout();
  if (!user) return null;
  const isAdmin = user.role === "admin" || user.role === "super_admin";
  return (
    <Group
      component="header"
      justify="space-between"
      px="md"
      py="sm"
      gap="md"
      style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
    >
      <Group gap="md" wrap="nowrap" style={{ flex: 1 }}>
        <Logo />
        <TextInput
          aria-label="Search"
          type="search"
          placeholder={SEARCH_PLACEHOLDER}
          value={search}
          onChange={(event) => onSearchChange?.(event.currentTarget.value)}
          style={{ flex: 1, maxWidth: 480 }}
        />
      </Group>
      <Group gap="sm">
        {actions}
        <UserBadge user={user} />
        {isAdmin ? (
          <Button component={Link} to="/admin/settings" variant="default">
            Settings
          </Button>
        ) : null}
        <Button variant="outline" onClick={() => void logout()}>
          Logout
        </Button>
      </Group>
    </Group>
  );
}
