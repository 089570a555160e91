import { editUserFormSchema, LIMITS, MESSAGES, type SessionUser, type UserListItem } from "@tally/contract";
import { type FormEvent, useEffect, useRef } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { MutationResult } from "../../../components/mutation-result";
import { errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { useUpdateUser } from "../api/update-user";
import { schoolChoice, withSchoolErrors } from "../lib/account-draft";
import { assignableRoles } from "../lib/user-rules";
import { AccountFields, useAccountForm } from "./account-fields";

interface Props {
  user: UserListItem;
  viewer: SessionUser;
  onClose: () => void;
}

/** Edit User: username, e-mail, role and school(s); closes 2 s after a successful save. */
export function EditUserModal({ user, viewer, onClose }: Props) {
  const account = useAccountForm(() => ({
    username: user.username,
    email: user.email,
    role: user.role,
    schoolId: user.role === "school_user" ? user.school_id : null,
    schoolIds: user.role === "district_user" ? user.school_ids : [],
  }));
  const { draft } = account;
  const update = useUpdateUser(user.id);
  const ownAccount = viewer.id === user.id;

  // The parent passes a new onClose on every render (the list refetches after the save);
  // reading it through a ref keeps the 2 s timer from restarting.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    if (!update.isSuccess) return;
    const timer = setTimeout(() => closeRef.current(), LIMITS.editSuccessCloseMs);
    return () => clearTimeout(timer);
  }, [update.isSuccess]);

  const roles = assignableRoles(viewer);
  if (!roles.some((r) => r.value === user.role)) roles.push({ value: user.role, label: user.role });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { username, email, role } = draft;
    const parsed = editUserFormSchema.safeParse({ username, email, role, ...schoolChoice(draft) });
    const found = withSchoolErrors(draft, parsed.success ? {} : fieldErrors(parsed.error));
    account.setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    update.mutate({
      username: parsed.data.username,
      email: parsed.data.email,
      // Sending an unchanged role of one's own account is allowed; the field is locked anyway.
      role: parsed.data.role,
      school_id: parsed.data.school_id ?? null,
      school_ids: draft.role === "district_user" ? (parsed.data.school_ids ?? []) : null,
    });
  };

  return (
    <ModalForm title="Edit User" onClose={onClose} onSubmit={submit}>
      <MutationResult
        mutation={update}
        success={MESSAGES.userUpdated}
        failure={(error) => errorText(error, "Failed to update user. Please try again.")}
      />
      <AccountFields
        form={account}
        roles={roles}
        schoolsError="Failed to load schools. Please try again."
        roleLockedNote={ownAccount ? "You cannot change your own role" : undefined}
      />
      <FormActions label="Save Changes" onCancel={onClose} pending={update.isPending} disabled={update.isSuccess} />
    </ModalForm>
  );
}
