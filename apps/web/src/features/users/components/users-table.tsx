import { Anchor, Button, Group, Stack, Table, Text } from "@mantine/core";
import type { SessionUser, UserListItem } from "@tally/contract";
import { DataTable } from "../../../components/data-table";
import { canChangeActive, canManage } from "../lib/user-rules";
import { SchoolNamesToggle } from "./school-names-toggle";
import { StatusButton } from "./status-button";
import { RoleBadge, StatusBadge } from "./user-badges";

interface Props {
  users: UserListItem[];
  viewer: SessionUser;
  onSendReset: (user: UserListItem) => void;
  onToggleActive: (user: UserListItem) => void;
  onManageSchools: (user: UserListItem) => void;
}

function SchoolCell({ user, onManage }: { user: UserListItem; onManage: () => void }) {
  if (user.role !== "district_user") return <Text size="sm">{user.school_name ?? "-"}</Text>;
  return (
    <Stack gap={2}>
      <Anchor component="button" type="button" size="sm" ta="left" onClick={onManage}>
        {user.school_name ?? "Manage Schools"}
      </Anchor>
      <SchoolNamesToggle names={user.school_names} username={user.username} />
    </Stack>
  );
}

/** Send Reset for accounts the viewer may manage; Deactivate / Reactivate where the viewer may change it. */
function RowActions({ user, viewer, onSendReset, onToggleActive }: Omit<Props, "users" | "onManageSchools"> & { user: UserListItem }) {
  return (
    <Group gap={6} wrap="nowrap">
      {canManage(viewer, user) ? (
        <Button size="compact-sm" variant="light" onClick={() => onSendReset(user)} aria-label={`Send Reset to ${user.username}`}>
          Send Reset
        </Button>
      ) : null}
      {canChangeActive(viewer, user) ? (
        <StatusButton
          user={user}
          onClick={() => onToggleActive(user)}
          aria-label={`${user.is_active ? "Deactivate" : "Reactivate"} ${user.username}`}
        />
      ) : null}
    </Group>
  );
}

const COLUMNS = ["Username", "Email", "Role", "School", "Status", "Actions"];

/** The /users table: Username, Email, Role, School, Status, Actions. */
export function UsersTable({ users, viewer, onSendReset, onToggleActive, onManageSchools }: Props) {
  return (
    <DataTable columns={COLUMNS} minWidth={820} striped highlightOnHover verticalSpacing="sm" aria-label="Users">
      {users.map((user) => (
        <Table.Tr key={user.id} data-testid={`user-row-${user.username}`}>
          <Table.Td fw={600}>{user.username}</Table.Td>
          <Table.Td style={{ wordBreak: "break-all" }}>{user.email}</Table.Td>
          <Table.Td>
            <RoleBadge role={user.role} />
          </Table.Td>
          <Table.Td maw={260}>
            <SchoolCell user={user} onManage={() => onManageSchools(user)} />
          </Table.Td>
          <Table.Td>
            <StatusBadge active={user.is_active} />
          </Table.Td>
          <Table.Td>
            <RowActions user={user} viewer={viewer} onSendReset={onSendReset} onToggleActive={onToggleActive} />
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
