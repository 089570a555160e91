import { Alert, Button, Group, Stack, TextInput, Title } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { BannerAlert } from "../../../components/banner-alert";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { useRequestPasswordReset } from "../api/request-password-reset";
import { ConfirmStatusModal } from "./confirm-status-modal";
import { CreateUserModal } from "./create-user-modal";
import { SchoolAssignmentModal } from "./school-assignment-modal";
import { UsersTable } from "./users-table";
import { useUserAdmin } from "./use-user-admin";

type Dialog = { kind: "create" } | { kind: "confirm"; user: UserListItem } | { kind: "schools"; user: UserListItem };

/** Spec section 2 "User Management page (/users)". */
export function UserManagementPage() {
  const viewer = useCurrentUser();
  const admin = useUserAdmin<Dialog>((user) => `Failed to update status for user ${user.username}. Please try again.`);
  const { users, dialog, setDialog, closeDialog, show } = admin;
  const sendReset = useRequestPasswordReset();

  if (!viewer) return null;

  const onSendReset = (user: UserListItem) =>
    sendReset.mutate(user.id, {
      onSuccess: () => show("success", "Password reset link has been sent"),
      onError: (error) => show("error", errorText(error, "Failed to send password reset")),
    });

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
      <TextInput
        label="Search users"
        placeholder="Search users by name, email, or role..."
        value={admin.search}
        onChange={(e) => admin.setSearch(e.currentTarget.value)}
        maw={480}
      />
      {users.isPending ? (
        <SectionLoader label="Loading users" py="xl" size="md" />
      ) : users.data && admin.matching.length === 0 ? (
        <EmptyState message="No users found matching your search" />
      ) : users.data ? (
        <UsersTable
          users={admin.matching}
          viewer={viewer}
          onSendReset={onSendReset}
          onToggleActive={(user) => setDialog({ kind: "confirm", user })}
          onManageSchools={(user) => setDialog({ kind: "schools", user })}
        />
      ) : null}
      {dialog?.kind === "create" ? <CreateUserModal viewer={viewer} onClose={closeDialog} onCreated={admin.onCreated} /> : null}
      {dialog?.kind === "confirm" ? (
        <ConfirmStatusModal
          user={dialog.user}
          onClose={closeDialog}
          onConfirm={() => {
            admin.changeStatus(dialog.user);
            closeDialog();
          }}
        />
      ) : null}
      {dialog?.kind === "schools" ? (
        <SchoolAssignmentModal
          user={dialog.user}
          districtTitle="School Access Management"
          onClose={closeDialog}
        />
      ) : null}
    </Stack>
  );
}
