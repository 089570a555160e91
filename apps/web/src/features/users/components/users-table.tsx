import { Anchor, Button, Group, Stack, Table, Text } from "@mantine/core";
import type { SessionUser, UserListItem } from "@tally/contract";
import { DataTable } from "../../../components/data-table";
import { canChangeActive, canManage } from "../lib/user-rules";
import { SchoolNamesToggle } from "./school-names-toggle";
import { StatusButton } from "./status-button";
import { RoleBadge, StatusBadge } from "./user-badges";
import { formatDateTime } from "../lib/date-time-text";

/** What a row's buttons (and a district user's school link) open. */
export type RowAction = "edit" | "reset-password" | "reset-second-factor" | "login-history" | "status" | "schools";

interface Props {
  users: UserListItem[];
  viewer: SessionUser;
  onAction: (action: RowAction, user: UserListItem) => void;
}

function SchoolCell({ user, onManage }: { user: UserListItem; onManage?: () => void }) {
  if (user.role !== "district_user") return <Text size="sm">{user.school_name ?? "-"}</Text>;
  return (
    <Stack gap={2}>
      {onManage ? (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={onManage}>
          {user.school_name ?? "Manage Schools"}
        </Anchor>
      ) : (
        <Text size="sm">{user.school_name ?? "-"}</Text>
      )}
      <SchoolNamesToggle names={user.school_names} username={user.username} />
    </Stack>
  );
}

/**
 * Edit, Reset password (active accounts only: a deactivated account cannot use a reset, and
 * reactivating sends one), Login history and Deactivate/Reactivate (never on one's own row).
 * Each button names the account for screen readers, as the row is read out of context.
 */
function RowActions({ user, viewer, onAction }: { user: UserListItem; viewer: SessionUser; onAction: Props["onAction"] }) {
  if (!canManage(viewer, user)) {
    return (
      <Text size="sm" c="dimmed">
        Super admins only
      </Text>
    );
  }
  const button = (action: RowAction, text: string, label: string) => (
    <Button size="compact-sm" variant="light" onClick={() => onAction(action, user)} aria-label={`${label} ${user.username}`}>
      {text}
    </Button>
  );
  return (
    <Group gap={6} wrap="nowrap" role="group" aria-label={`Actions for ${user.username}`}>
      {button("edit", "Edit", "Edit")}
      {user.is_active ? button("reset-password", "Reset Password", "Reset password of") : null}
      {/* One's own is turned off with a current code on the Two-step sign-in page. */}
      {user.id === viewer.id ? null : button("reset-second-factor", "Reset Two-Step", "Reset two-step sign-in of")}
      {button("login-history", "Login History", "Login history of")}
      {canChangeActive(viewer, user) ? (
        <StatusButton
          user={user}
          onClick={() => onAction("status", user)}
          aria-label={`${user.is_active ? "Deactivate" : "Reactivate"} ${user.username}`}
        />
      ) : null}
    </Group>
  );
}

const COLUMNS = ["User", "Role", "School", "Status", "Actions"];

/** The one user table (issue 29: /users and the old settings list merged). */
export function UsersTable({ users, viewer, onAction }: Props) {
  return (
    <DataTable columns={COLUMNS} minWidth={960} striped highlightOnHover verticalSpacing="sm" aria-label="Users">
      {users.map((user) => (
        <Table.Tr key={user.id} data-testid={`user-row-${user.username}`}>
          {/* Who, their address and when they last signed in, in one cell: the row stays one line high. */}
          <Table.Td maw={280}>
            <Text fw={600} size="sm">
              {user.username}
            </Text>
            <Text size="sm" style={{ overflowWrap: "anywhere" }}>
              {user.email}
            </Text>
            <Text size="xs" c="dimmed">
              Last login: {user.last_login ? formatDateTime(user.last_login) : "Never"}
            </Text>
          </Table.Td>
          <Table.Td>
            <RoleBadge role={user.role} />
          </Table.Td>
          <Table.Td maw={240}>
            <SchoolCell user={user} onManage={canManage(viewer, user) ? () => onAction("schools", user) : undefined} />
          </Table.Td>
          <Table.Td>
            <StatusBadge active={user.is_active} />
          </Table.Td>
          <Table.Td>
            <RowActions user={user} viewer={viewer} onAction={onAction} />
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
