import { ActionIcon, Alert, Button, Collapse, Group, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { LIMITS, type SessionUser, type UserListItem } from "@tally/contract";
import { useCallback, useId, useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { EmptyState } from "../../../components/empty-state";
import { PageButtons } from "../../../components/page-buttons";
import { SectionLoader } from "../../../components/section-loader";
import { pageOf } from "../../../lib/paging";
import { type ListDialog, UserListDialogs } from "./user-list-dialogs";
import { type RowAction, UserListRow } from "./user-list-row";
import { useUserAdmin } from "./use-user-admin";

function Rows({ users, viewer, onAction }: { users: UserListItem[]; viewer: SessionUser; onAction: (a: RowAction, u: UserListItem) => void }) {
  return (
    <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: "none" }}>
      {users.map((u) => (
        <UserListRow key={u.id} user={u} viewer={viewer} onAction={onAction} />
      ))}
    </Stack>
  );
}

/** The user list inside Admin Settings (spec section 2 "User list (inside settings)"). */
export function UserList({ viewer }: { viewer: SessionUser }) {
  const admin = useUserAdmin<ListDialog>((user) => `Failed to ${user.is_active ? "deactivate" : "reactivate"} user. Please try again.`);
  const { users, setDialog } = admin;
  const [page, setPage] = useState(1);
  const [showInactive, setShowInactive] = useState(false);
  const inactiveId = useId();
  const onAction = useCallback((kind: RowAction, user: UserListItem) => setDialog({ kind, user }), [setDialog]);

  const all = users.data ?? [];
  const active = admin.matching.filter((u) => u.is_active);
  const inactive = admin.matching.filter((u) => !u.is_active);
  const slice = pageOf(active, page, LIMITS.userListPageSize);

  return (
    <Stack gap="sm">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label="Search users"
          placeholder="Search users..."
          value={admin.search}
          onChange={(e) => {
            admin.setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: "1 1 220px" }}
        />
        <ActionIcon
          variant="default"
          size={36}
          aria-label="Refresh users"
          onClick={() => void users.refetch()}
          loading={users.isFetching}
        >
          <span aria-hidden="true">↻</span>
        </ActionIcon>
        <Button onClick={() => setDialog({ kind: "create" })}>Create User</Button>
      </Group>
      <BannerAlert banner={admin.banner} onClose={admin.clearBanner} />
      {users.isError ? (
        <Alert color="red" role="alert">
          Failed to load users. Please try again.
        </Alert>
      ) : null}
      {users.isPending ? (
        <SectionLoader label="Loading users" />
      ) : users.data ? (
        <>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={600} data-testid="active-users-count">
              Active Users: {active.length} of {all.length} total
            </Text>
            {slice.total > 0 ? (
              <Text size="sm" c="dimmed" data-testid="showing-range">
                Showing {slice.from}-{slice.to} of {slice.total}
              </Text>
            ) : null}
          </Group>
          {slice.total === 0 ? <EmptyState message="No active users found" /> : <Rows users={slice.items} viewer={viewer} onAction={onAction} />}
          <PageButtons page={slice.page} pageCount={slice.pageCount} onChange={setPage} label="active users" />
          <UnstyledButton
            onClick={() => setShowInactive((v) => !v)}
            aria-expanded={showInactive}
            aria-controls={inactiveId}
            fw={600}
            py={4}
          >
            <span aria-hidden="true">{showInactive ? "▾ " : "▸ "}</span>
            Inactive Users ({inactive.length})
          </UnstyledButton>
          <Collapse expanded={showInactive} id={inactiveId}>
            {inactive.length === 0 ? (
              <EmptyState message="No inactive users" />
            ) : (
              <Rows users={inactive} viewer={viewer} onAction={onAction} />
            )}
          </Collapse>
        </>
      ) : null}
      <UserListDialogs
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
