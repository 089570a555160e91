import { Box, Button, Collapse, Group, Paper, Text, UnstyledButton } from "@mantine/core";
import type { SessionUser, UserListItem } from "@tally/contract";
import { useId, useState } from "react";
import { canChangeActive, canManage } from "../lib/user-rules";
import { StatusButton } from "./status-button";
import { RoleBadge, StatusBadge } from "./user-badges";
import { UserDetails } from "./user-details";

export type RowAction = "login-history" | "reset-password" | "reset-second-factor" | "edit" | "schools" | "status";

interface Props {
  user: UserListItem;
  viewer: SessionUser;
  onAction: (action: RowAction, user: UserListItem) => void;
}

/** One account in the settings list; its header toggles the details and actions. */
export function UserListRow({ user, viewer, onAction }: Props) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const manageable = canManage(viewer, user);
  const hasSchools = user.role === "school_user" || user.role === "district_user";
  return (
    <Paper component="li" withBorder radius="sm" data-testid={`user-item-${user.username}`}>
      <UnstyledButton
        w="100%"
        p="sm"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-controls={detailsId}
      >
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Box miw={0} style={{ flex: "1 1 220px" }}>
            <Text fw={600} truncate>
              {user.username}
            </Text>
            <Text size="sm" c="dimmed" truncate>
              {user.email}
            </Text>
          </Box>
          <Group gap="xs" wrap="nowrap">
            <RoleBadge role={user.role} />
            <StatusBadge active={user.is_active} />
            <Text aria-hidden="true" c="dimmed" fz="sm" w={12} ta="center">
              {open ? "▴" : "▾"}
            </Text>
          </Group>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open} id={detailsId} keepMounted={false}>
        <Box px="sm" pb="sm" pt={4} style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
          <UserDetails
            user={user}
            onManageSchools={manageable && hasSchools ? () => onAction("schools", user) : undefined}
          />
          {manageable ? (
            <Group gap="xs" mt="sm" wrap="wrap" role="group" aria-label={`Actions for ${user.username}`}>
              <Button size="compact-sm" variant="light" onClick={() => onAction("login-history", user)}>
                Login History
              </Button>
              <Button size="compact-sm" variant="light" onClick={() => onAction("reset-password", user)}>
                Reset Password
              </Button>
              {/* One's own is turned off with a current code on the Two-step sign-in page. */}
              {user.id === viewer.id ? null : (
                <Button size="compact-sm" variant="light" onClick={() => onAction("reset-second-factor", user)}>
                  Reset Two-Step Sign-In
                </Button>
              )}
              <Button size="compact-sm" variant="light" onClick={() => onAction("edit", user)}>
                Edit
              </Button>
              {canChangeActive(viewer, user) ? (
                <StatusButton user={user} onClick={() => onAction("status", user)} />
              ) : null}
            </Group>
          ) : (
            <Text size="sm" c="dimmed" mt="sm">
              Only a super admin can manage this account.
            </Text>
          )}
        </Box>
      </Collapse>
    </Paper>
  );
}
