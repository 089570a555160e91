import { ActionIcon, Alert, Button, Group, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import { LIMITS, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { EmptyState } from "../../../components/empty-state";
import { PageButtons } from "../../../components/page-buttons";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { pageOf } from "../../../lib/paging";
import { type UserDialog, UserDialogs } from "./user-dialogs";
import { UsersTable } from "./users-table";
import { useUserAdmin } from "./use-user-admin";

type StatusFilter = "all" | "active" | "inactive";

const STATUS_CHOICES = [
  { value: "all", label: "All" },
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
];

const byStatus = (filter: StatusFilter) => (u: UserListItem) => filter === "all" || u.is_active === (filter === "active");

/** /users: the one user-management screen (issue 29 merged the settings list into it). */
export function UserManagementPage() {
  const viewer = useCurrentUser();
  const admin = useUserAdmin<UserDialog>((user) => `Failed to update status for user ${user.username}. Please try again.`);
  const { users, setDialog } = admin;
  const [status, setStatus] = useState<StatusFilter>("all");
  const [page, setPage] = useState(1);

  if (!viewer) return null;

  const all = users.data ?? [];
  const shown = admin.matching.filter(byStatus(status));
  const slice = pageOf(shown, page, LIMITS.userListPageSize);
  const activeCount = all.filter((u) => u.is_active).length;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1}>User Management</Title>
        <Button onClick={() => setDialog({ kind: "create" })}>Add User</Button>
      </Group>
      <BannerAlert banner={admin.banner} onClose={admin.clearBanner} />
      {users.isError ? (
        <Alert color="red" role="alert">
          {errorText(users.error, "Failed to fetch users")}
        </Alert>
      ) : null}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search users"
          placeholder="Search users by name, email, or role..."
          value={admin.search}
          onChange={(e) => {
            admin.setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: "1 1 260px", maxWidth: 480 }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="user-status-filter">
            Status
          </Text>
          <SegmentedControl
            aria-labelledby="user-status-filter"
            data={STATUS_CHOICES}
            value={status}
            onChange={(value) => {
              setStatus(value as StatusFilter);
              setPage(1);
            }}
          />
        </Stack>
        <ActionIcon variant="default" size={36} aria-label="Refresh users" onClick={() => void users.refetch()} loading={users.isFetching}>
          <span aria-hidden="true">↻</span>
        </ActionIcon>
      </Group>
      {users.isPending ? (
        <SectionLoader label="Loading users" py="xl" size="md" />
      ) : users.data && slice.total === 0 ? (
        <EmptyState message="No users found matching your search" />
      ) : users.data ? (
        <>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={600} data-testid="active-users-count">
              Active users: {activeCount} of {all.length}
            </Text>
            <Text size="sm" c="dimmed" data-testid="showing-range">
              Showing {slice.from}-{slice.to} of {slice.total}
            </Text>
          </Group>
          <UsersTable users={slice.items} viewer={viewer} onAction={(kind, user) => setDialog({ kind, user })} />
          <PageButtons page={slice.page} pageCount={slice.pageCount} onChange={setPage} label="users" />
        </>
      ) : null}
      <UserDialogs
        dialog={admin.dialog}
        viewer={viewer}
        onClose={admin.closeDialog}
        onCreated={admin.onCreated}
        onConfirmStatus={(user) => {
          admin.closeDialog();
          admin.changeStatus(user);
        }}
      />
    </Stack>
  );
}
