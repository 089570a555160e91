import { Button, Divider, Group, Stack, Text } from "@mantine/core";
import { adminResetPasswordFormSchema, type UserListItem } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { ModalShell } from "../../../components/modal-shell";
import { MutationResult } from "../../../components/mutation-result";
import { errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { useResetUserPassword } from "../api/reset-user-password";
import { PasswordPairFields } from "./password-pair-fields";

const FAILED = "Failed to reset password. Please try again.";

/**
 * Asks before anything happens, naming the person: e-mail them a reset link (first: the owner
 * chooses the password), or set one for them.
 */
export function ResetPasswordModal({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useResetUserPassword(user.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = adminResetPasswordFormSchema.safeParse({ password, confirmPassword });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (parsed.success) reset.mutate(parsed.data.password);
  };

  return (
    <ModalShell title={`Reset password for ${user.username}`} onClose={onClose}>
      <Stack gap="sm">
        <MutationResult mutation={reset} success={reset.data?.message} failure={(error) => errorText(error, FAILED)} />
        <Text size="sm" data-testid="reset-confirm-text">
          Send <strong>{user.username}</strong> a link at <strong>{user.email}</strong> to choose a new password?
        </Text>
        <Group justify="flex-end">
          <Button onClick={() => reset.mutate(undefined)} loading={reset.isPending && reset.variables === undefined} data-autofocus>
            Send Reset Link
          </Button>
        </Group>
        <Divider label="or set a password yourself" labelPosition="center" />
        <form onSubmit={submit} noValidate aria-label={`Set a new password for ${user.username}`}>
          <Stack gap="sm">
            <Text size="sm">
              Choose a new password and give it to {user.username} yourself. Their other sessions end.
            </Text>
            <PasswordPairFields
              labels={["New Password", "Confirm New Password"]}
              password={password}
              confirmPassword={confirmPassword}
              onPassword={setPassword}
              onConfirmPassword={setConfirmPassword}
              errors={errors}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={reset.isPending && reset.variables !== undefined}>
                Set Password
              </Button>
            </Group>
          </Stack>
        </form>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </ModalShell>
  );
}
