import type { SessionUser, UserListItem } from "@tally/contract";
import { ConfirmStatusModal } from "./confirm-status-modal";
import { CreateUserModal } from "./create-user-modal";
import { EditUserModal } from "./edit-user-modal";
import { LoginHistoryModal } from "./login-history-modal";
import { ResetPasswordModal } from "./reset-password-modal";
import { ResetSecondFactorModal } from "./reset-second-factor-modal";
import { SchoolAssignmentModal } from "./school-assignment-modal";
import type { RowAction } from "./user-list-row";

export type ListDialog = { kind: RowAction; user: UserListItem } | { kind: "create" };

interface Props {
  dialog: ListDialog | null;
  viewer: SessionUser;
  onClose: () => void;
  onCreated: () => void;
  onConfirmStatus: (user: UserListItem) => void;
}

/** Whichever dialog of the settings user list is open. */
export function UserListDialogs({ dialog, viewer, onClose, onCreated, onConfirmStatus }: Props) {
  if (!dialog) return null;
  switch (dialog.kind) {
    case "create":
      return <CreateUserModal viewer={viewer} onClose={onClose} onCreated={onCreated} />;
    case "login-history":
      return <LoginHistoryModal user={dialog.user} onClose={onClose} />;
    case "reset-password":
      return <ResetPasswordModal user={dialog.user} onClose={onClose} />;
    case "reset-second-factor":
      return <ResetSecondFactorModal user={dialog.user} onClose={onClose} />;
    case "edit":
      return <EditUserModal user={dialog.user} viewer={viewer} onClose={onClose} />;
    case "schools":
      return <SchoolAssignmentModal user={dialog.user} onClose={onClose} />;
    case "status":
      return <ConfirmStatusModal user={dialog.user} onClose={onClose} onConfirm={() => onConfirmStatus(dialog.user)} />;
  }
}
