import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { ModalShell } from "../../../components/modal-shell";
import { errorText } from "../../../lib/api-error";
import { useResetSecondFactor } from "../api/reset-second-factor";

/** An administrator turns another account's two-step sign-in off (a lost phone), after saying so. */
export function ResetSecondFactorModal({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const reset = useResetSecondFactor(user.id);
  return (
    <ModalShell title="Reset Two-Step Sign-In" onClose={onClose}>
      <Stack gap="sm">
        {reset.isSuccess ? (
          <Alert color="green" role="status">
            {reset.data.message}
          </Alert>
        ) : null}
        {reset.isError ? (
          <Alert color="red" role="alert">
            {errorText(reset.error, "Failed to reset two-step sign-in. Please try again.")}
          </Alert>
        ) : null}
        <Text size="sm">
          <strong>{user.username}</strong> then signs in with the password alone until they set up two-step sign-in
          again. They are told by e-mail.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {reset.isSuccess ? "Close" : "Cancel"}
          </Button>
          {reset.isSuccess ? null : (
            <Button color="red" loading={reset.isPending} onClick={() => reset.mutate()}>
              Reset
            </Button>
          )}
        </Group>
      </Stack>
    </ModalShell>
  );
}
