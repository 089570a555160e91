import type { SessionUser, UserListItem } from "@tally/contract";
import { ConfirmStatusModal } from "./confirm-status-modal";
import { CreateUserModal } from "./create-user-modal";
import { EditUserModal } from "./edit-user-modal";
import { LoginHistoryModal } from "./login-history-modal";
import { ResetPasswordModal } from "./reset-password-modal";
import { ResetSecondFactorModal } from "./reset-second-factor-modal";
import { SchoolAssignmentModal } from "./school-assignment-modal";
import type { RowAction } from "./users-table";

export type UserDialog = { kind: RowAction; user: UserListItem } | { kind: "create" };

interface Props {
  dialog: UserDialog | null;
  viewer: SessionUser;
  onClose: () => void;
  onCreated: () => void;
  onConfirmStatus: (user: UserListItem) => void;
}

/** Whichever dialog of the user table is open. */
export function UserDialogs({ dialog, viewer, onClose, onCreated, onConfirmStatus }: Props) {
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
      return <SchoolAssignmentModal user={dialog.user} districtTitle="School Access Management" onClose={onClose} />;
    case "status":
      return <ConfirmStatusModal user={dialog.user} onClose={onClose} onConfirm={() => onConfirmStatus(dialog.user)} />;
  }
}
