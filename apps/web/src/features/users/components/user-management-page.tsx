import { Alert, Button, Group, Stack, TextInput, Title } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { useBanner } from "../../../lib/use-banner";
import { useUsers } from "../api/get-users";
import { useRequestPasswordReset } from "../api/request-password-reset";
import { matchesSearch } from "../lib/user-rules";
import { ConfirmStatusModal } from "./confirm-status-modal";
import { CreateUserModal } from "./create-user-modal";
import { SchoolAssignmentModal } from "./school-assignment-modal";
import { useStatusChange } from "./use-status-change";
import { UsersTable } from "./users-table";

type Dialog =
  | { kind: "create" }
  | { kind: "confirm"; user: UserListItem }
  | { kind: "schools"; user: UserListItem }
  | null;

/** Spec section 2 "User Management page (/users)". */
export function UserManagementPage() {
  const viewer = useCurrentUser();
  const users = useUsers();
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<Dialog>(null);
  const { banner, show, clear } = useBanner();
  const sendReset = useRequestPasswordReset();
  const changeStatus = useStatusChange({
    onSuccess: (text) => show("success", text),
    onError: (text) => show("error", text),
    fallback: (user) => `Failed to update status for user ${user.username}. Please try again.`,
  });

  if (!viewer) return null;
  const visible = (users.data ?? []).filter((u) => matchesSearch(u, search));

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
      <BannerAlert banner={banner} onClose={clear} />
      {users.isError ? (
        <Alert color="red" role="alert">
          {errorText(users.error, "Failed to fetch users")}
        </Alert>
      ) : null}
      <TextInput
        label="Search users"
        placeholder="Search users by name, email, or role..."
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={480}
      />
      {users.isPending ? (
        <SectionLoader label="Loading users" py="xl" size="md" />
      ) : users.data && visible.length === 0 ? (
        <EmptyState message="No users found matching your search" />
      ) : users.data ? (
        <UsersTable
          users={visible}
          viewer={viewer}
          onSendReset={onSendReset}
          onToggleActive={(user) => setDialog({ kind: "confirm", user })}
          onManageSchools={(user) => setDialog({ kind: "schools", user })}
        />
      ) : null}
      {dialog?.kind === "create" ? (
        <CreateUserModal
          viewer={viewer}
          onClose={() => setDialog(null)}
          onCreated={() => {
            setDialog(null);
            void users.refetch();
            show("success", "User created successfully");
          }}
        />
      ) : null}
      {dialog?.kind === "confirm" ? (
        <ConfirmStatusModal
          user={dialog.user}
          onClose={() => setDialog(null)}
          onConfirm={() => {
            changeStatus(dialog.user);
            setDialog(null);
          }}
        />
      ) : null}
      {dialog?.kind === "schools" ? (
        <SchoolAssignmentModal
          user={dialog.user}
          districtTitle="School Access Management"
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
}
