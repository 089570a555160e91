import { Alert, Button, Group, NativeSelect, Stack, TextInput } from "@mantine/core";
import { editUserFormSchema, LIMITS, MESSAGES, type Role, type SessionUser, type UserListItem } from "@tally/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorText } from "../../../lib/api-error";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useUpdateUser } from "../api/update-user";
import { assignableRoles } from "../lib/user-rules";
import { fieldErrors } from "./form-errors";
import { SchoolFields } from "./school-fields";
import { UserModal } from "./user-modal";

interface Props {
  user: UserListItem;
  viewer: SessionUser;
  onClose: () => void;
}

/** Edit User: username, e-mail, role and school(s); closes 2 s after a successful save. */
export function EditUserModal({ user, viewer, onClose }: Props) {
  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [role, setRole] = useState<Role>(user.role);
  const [schoolId, setSchoolId] = useState<number | null>(user.role === "school_user" ? user.school_id : null);
  const [schoolIds, setSchoolIds] = useState<number[]>(user.role === "district_user" ? user.school_ids : []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const schools = useSchoolOptions();
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

  const changeRole = (next: Role) => {
    setRole(next);
    if (next !== "school_user") setSchoolId(null);
    if (next !== "district_user") setSchoolIds([]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = {
      username,
      email,
      role,
      school_id: role === "school_user" ? schoolId : null,
      school_ids: role === "district_user" ? schoolIds : null,
    };
    const parsed = editUserFormSchema.safeParse(form);
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    if (role === "school_user" && schoolId === null) found.school_id ??= MESSAGES.selectSchool;
    if (role === "district_user" && schoolIds.length === 0) found.school_ids ??= MESSAGES.selectSchools;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    update.mutate({
      username: parsed.data.username,
      email: parsed.data.email,
      // Sending an unchanged role of one's own account is allowed; the field is locked anyway.
      role: parsed.data.role,
      school_id: parsed.data.school_id ?? null,
      school_ids: role === "district_user" ? (parsed.data.school_ids ?? []) : null,
    });
  };

  return (
    <UserModal title="Edit User" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-label="Edit User">
        <Stack gap="sm">
          {update.isSuccess ? (
            <Alert color="green" role="status">
              {MESSAGES.userUpdated}
            </Alert>
          ) : null}
          {update.isError ? (
            <Alert color="red" role="alert">
              {errorText(update.error, "Failed to update user. Please try again.")}
            </Alert>
          ) : null}
          {schools.isError ? (
            <Alert color="red" role="alert">
              Failed to load schools. Please try again.
            </Alert>
          ) : null}
          <TextInput
            label="Username"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={errors.username}
            maxLength={64}
            required
          />
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            maxLength={320}
            required
          />
          <NativeSelect
            label="Role"
            data={roles}
            value={role}
            onChange={(e) => changeRole(e.currentTarget.value as Role)}
            error={errors.role}
            disabled={ownAccount}
            description={ownAccount ? "You cannot change your own role" : undefined}
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
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={update.isSuccess}>
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </UserModal>
  );
}
