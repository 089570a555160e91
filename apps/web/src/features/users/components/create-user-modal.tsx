import { Alert, Button, Group, NativeSelect, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import {
  generatePassword,
  MESSAGES,
  registerRequestSchema,
  type Role,
  type SessionUser,
} from "@tally/contract";
import { type FormEvent, useState } from "react";
import { errorText } from "../../../lib/api-error";
import { useCreateUser } from "../api/create-user";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { assignableRoles } from "../lib/user-rules";
import { CreatedUserPanel } from "./created-user-panel";
import { fieldErrors } from "./form-errors";
import { SchoolFields } from "./school-fields";
import { UserModal } from "./user-modal";

interface Props {
  viewer: SessionUser;
  onClose: () => void;
  /** Called from the success panel's Continue. */
  onCreated: () => void;
}

function validate(form: {
  username: string;
  email: string;
  role: Role | null;
  schoolId: number | null;
  schoolIds: number[];
  password: string;
  confirmPassword: string;
}): Record<string, string> {
  const parsed = registerRequestSchema.safeParse({
    username: form.username,
    email: form.email,
    role: form.role ?? undefined,
    password: form.password,
    school_id: form.role === "school_user" ? form.schoolId : null,
    school_ids: form.role === "district_user" ? form.schoolIds : null,
  });
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  // Zod skips the object-level school rules while a field is invalid; they are checked here too.
  if (form.role === "school_user" && form.schoolId === null) errors.school_id ??= MESSAGES.selectSchool;
  if (form.role === "district_user" && form.schoolIds.length === 0) errors.school_ids ??= MESSAGES.selectSchools;
  if (form.password !== form.confirmPassword) errors.confirmPassword = MESSAGES.passwordsDoNotMatch;
  return errors;
}

/** Spec section 2 "Create New User dialog": form, then a panel with the password to save. */
export function CreateUserModal({ viewer, onClose, onCreated }: Props) {
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role | null>(null);
  const [schoolId, setSchoolId] = useState<number | null>(null);
  const [schoolIds, setSchoolIds] = useState<number[]>([]);
  const [password, setPassword] = useState(() => generatePassword());
  const [confirmPassword, setConfirmPassword] = useState(password);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const schools = useSchoolOptions();
  const create = useCreateUser();

  const changeRole = (next: Role | null) => {
    setRole(next);
    // Leaving a role drops the school choice that only made sense for it (spec section 4).
    if (next !== "school_user") setSchoolId(null);
    if (next !== "district_user") setSchoolIds([]);
  };

  const regenerate = () => {
    const fresh = generatePassword();
    setPassword(fresh);
    setConfirmPassword(fresh);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate({ username, email, role, schoolId, schoolIds, password, confirmPassword });
    setErrors(found);
    if (Object.keys(found).length > 0 || role === null) return;
    create.mutate({
      username: username.trim(),
      email: email.trim(),
      role,
      password,
      ...(role === "school_user" ? { school_id: schoolId } : {}),
      ...(role === "district_user" ? { school_ids: schoolIds } : {}),
    });
  };

  if (create.isSuccess) {
    return (
      <UserModal title="Create New User" onClose={onCreated}>
        <CreatedUserPanel username={username.trim()} email={email.trim()} password={password} onContinue={onCreated} />
      </UserModal>
    );
  }

  return (
    <UserModal title="Create New User" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-label="Create New User">
        <Stack gap="sm">
          {create.isError ? (
            <Alert color="red" role="alert">
              {errorText(create.error, MESSAGES.createUserFailed)}
            </Alert>
          ) : null}
          {schools.isError ? (
            <Alert color="red" role="alert">
              Could not fetch schools. Please try again.
            </Alert>
          ) : null}
          <TextInput
            label="Username"
            description="Letters and numbers only, at least 3 characters"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={errors.username}
            autoComplete="off"
            maxLength={64}
            required
            data-autofocus
          />
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            autoComplete="off"
            maxLength={320}
            required
          />
          <NativeSelect
            label="Role"
            data={[{ value: "", label: "Select a role" }, ...assignableRoles(viewer)]}
            value={role ?? ""}
            onChange={(e) => changeRole((e.currentTarget.value || null) as Role | null)}
            error={errors.role}
            required
          />
          <SchoolFields
            role={role}
            schools={schools.data ?? []}
            schoolId={schoolId}
            schoolIds={schoolIds}
            onSchoolId={setSchoolId}
            onSchoolIds={setSchoolIds}
            errors={errors}
          />
          <PasswordInput
            label="Password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            autoComplete="new-password"
            required
          />
          <PasswordInput
            label="Confirm Password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.currentTarget.value)}
            error={errors.confirmPassword}
            autoComplete="new-password"
            required
          />
          <Group justify="space-between" gap="sm">
            <Button variant="light" onClick={regenerate} aria-label="Generate New password">
              Generate New
            </Button>
            <Text size="xs" c="dimmed">
              A random 12-character password is filled in for you.
            </Text>
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create User
            </Button>
          </Group>
        </Stack>
      </form>
    </UserModal>
  );
}
