import { Alert, NativeSelect, TextInput } from "@mantine/core";
import type { Role } from "@tally/contract";
import { useState } from "react";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { type AccountDraft, changeDraft } from "../lib/account-draft";
import { SchoolFields } from "./school-fields";

/** The account being typed in and the errors of the last submit. */
export function useAccountForm(initial: () => AccountDraft) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return { draft, setDraft, errors, setErrors };
}

interface Props {
  form: ReturnType<typeof useAccountForm>;
  roles: Array<{ value: string; label: string }>;
  /** The dialog's own text when the school list cannot be read (the spec words them differently). */
  schoolsError: string;
  /** Create User's hint under the username. */
  usernameHint?: string;
  /** The dialog opens with the cursor in the username. */
  focusUsername?: boolean;
  /** Shown under the locked role of one's own account. */
  roleLockedNote?: string;
}

/** Username, e-mail, role and the role's school(s): the fields the Create and Edit User dialogs share. */
export function AccountFields({ form, roles, schoolsError, usernameHint, focusUsername, roleLockedNote }: Props) {
  const { draft, setDraft, errors } = form;
  const schools = useSchoolOptions();
  const change = (patch: Partial<AccountDraft>) => setDraft((d) => changeDraft(d, patch));
  return (
    <>
      {schools.isError ? (
        <Alert color="red" role="alert">
          {schoolsError}
        </Alert>
      ) : null}
      <TextInput
        label="Username"
        description={usernameHint}
        value={draft.username}
        onChange={(e) => change({ username: e.currentTarget.value })}
        error={errors.username}
        autoComplete="off"
        maxLength={64}
        required
        data-autofocus={focusUsername}
      />
      <TextInput
        label="Email"
        type="email"
        value={draft.email}
        onChange={(e) => change({ email: e.currentTarget.value })}
        error={errors.email}
        autoComplete="off"
        maxLength={320}
        required
      />
      <NativeSelect
        label="Role"
        data={roles}
        value={draft.role ?? ""}
        onChange={(e) => change({ role: (e.currentTarget.value || null) as Role | null })}
        error={errors.role}
        disabled={roleLockedNote !== undefined}
        description={roleLockedNote}
        required
      />
      <SchoolFields
        role={draft.role}
        schools={schools.data ?? []}
        schoolId={draft.schoolId}
        schoolIds={draft.schoolIds}
        onSchoolId={(schoolId) => change({ schoolId })}
        onSchoolIds={(schoolIds) => change({ schoolIds })}
        errors={errors}
      />
    </>
  );
}
