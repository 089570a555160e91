import { NativeSelect, TextInput } from "@mantine/core";
import type { Role, SchoolItem } from "@tally/contract";
import type { AccountDraft } from "../lib/account-draft";
import { SchoolFields } from "./school-fields";

interface Props {
  draft: AccountDraft;
  onChange: (patch: Partial<AccountDraft>) => void;
  errors: Record<string, string>;
  roles: Array<{ value: string; label: string }>;
  schools: SchoolItem[];
  /** Create User's hint under the username. */
  usernameHint?: string;
  /** The dialog opens with the cursor in the username. */
  focusUsername?: boolean;
  /** Shown under the locked role of one's own account. */
  roleLockedNote?: string;
}

/** Username, e-mail, role and the role's school(s): the fields the Create and Edit User dialogs share. */
export function AccountFields({ draft, onChange, errors, roles, schools, usernameHint, focusUsername, roleLockedNote }: Props) {
  return (
    <>
      <TextInput
        label="Username"
        description={usernameHint}
        value={draft.username}
        onChange={(e) => onChange({ username: e.currentTarget.value })}
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
        onChange={(e) => onChange({ email: e.currentTarget.value })}
        error={errors.email}
        autoComplete="off"
        maxLength={320}
        required
      />
      <NativeSelect
        label="Role"
        data={roles}
        value={draft.role ?? ""}
        onChange={(e) => onChange({ role: (e.currentTarget.value || null) as Role | null })}
        error={errors.role}
        disabled={roleLockedNote !== undefined}
        description={roleLockedNote}
        required
      />
      <SchoolFields
        role={draft.role}
        schools={schools}
        schoolId={draft.schoolId}
        schoolIds={draft.schoolIds}
        onSchoolId={(schoolId) => onChange({ schoolId })}
        onSchoolIds={(schoolIds) => onChange({ schoolIds })}
        errors={errors}
      />
    </>
  );
}
