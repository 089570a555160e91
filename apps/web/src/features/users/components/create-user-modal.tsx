import { Alert, Button, Group, Text } from "@mantine/core";
import { generatePassword, MESSAGES, registerRequestSchema, type SessionUser } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { ModalShell } from "../../../components/modal-shell";
import { errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { useCreateUser } from "../api/create-user";
import { type AccountDraft, schoolChoice, withSchoolErrors } from "../lib/account-draft";
import { assignableRoles } from "../lib/user-rules";
import { AccountFields, useAccountForm } from "./account-fields";
import { CreatedUserPanel } from "./created-user-panel";
import { PasswordPairFields } from "./password-pair-fields";

interface Props {
  viewer: SessionUser;
  onClose: () => void;
  /** Called from the success panel's Continue. */
  onCreated: () => void;
}

const EMPTY: AccountDraft = { username: "", email: "", role: null, schoolId: null, schoolIds: [] };

function validate(draft: AccountDraft, password: string, confirmPassword: string): Record<string, string> {
  const parsed = registerRequestSchema.safeParse({
    username: draft.username,
    email: draft.email,
    role: draft.role ?? undefined,
    password,
    ...schoolChoice(draft),
  });
  const errors = withSchoolErrors(draft, parsed.success ? {} : fieldErrors(parsed.error));
  if (password !== confirmPassword) errors.confirmPassword = MESSAGES.passwordsDoNotMatch;
  return errors;
}

/** Spec section 2 "Create New User dialog": form, then a panel with the password to save. */
export function CreateUserModal({ viewer, onClose, onCreated }: Props) {
  const account = useAccountForm(() => EMPTY);
  const { draft, errors } = account;
  const [password, setPassword] = useState(() => generatePassword());
  const [confirmPassword, setConfirmPassword] = useState(password);
  const create = useCreateUser();
  const { role } = draft;

  const regenerate = () => {
    const fresh = generatePassword();
    setPassword(fresh);
    setConfirmPassword(fresh);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(draft, password, confirmPassword);
    account.setErrors(found);
    if (Object.keys(found).length > 0 || role === null) return;
    create.mutate({
      username: draft.username.trim(),
      email: draft.email.trim(),
      role,
      password,
      ...(role === "school_user" ? { school_id: draft.schoolId } : {}),
      ...(role === "district_user" ? { school_ids: draft.schoolIds } : {}),
    });
  };

  if (create.isSuccess) {
    return (
      <ModalShell title="Create New User" onClose={onCreated}>
        <CreatedUserPanel
          username={draft.username.trim()}
          email={draft.email.trim()}
          password={password}
          onContinue={onCreated}
        />
      </ModalShell>
    );
  }

  return (
    <ModalForm title="Create New User" onClose={onClose} onSubmit={submit}>
      {create.isError ? (
        <Alert color="red" role="alert">
          {errorText(create.error, MESSAGES.createUserFailed)}
        </Alert>
      ) : null}
      <AccountFields
        form={account}
        roles={[{ value: "", label: "Select a role" }, ...assignableRoles(viewer)]}
        schoolsError="Could not fetch schools. Please try again."
        usernameHint="Letters and numbers only, at least 3 characters"
        focusUsername
      />
      <PasswordPairFields
        labels={["Password", "Confirm Password"]}
        password={password}
        confirmPassword={confirmPassword}
        onPassword={setPassword}
        onConfirmPassword={setConfirmPassword}
        errors={errors}
      />
      <Group justify="space-between" gap="sm">
        <Button variant="light" onClick={regenerate} aria-label="Generate New password">
          Generate New
        </Button>
        <Text size="xs" c="dimmed">
          A random 12-character password is filled in for you.
        </Text>
      </Group>
      <FormActions label="Create User" onCancel={onClose} pending={create.isPending} />
    </ModalForm>
  );
}
