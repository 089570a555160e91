import { Button, Group, Stack, Text } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { ModalShell } from "../../../components/modal-shell";
import { MutationResult } from "../../../components/mutation-result";
import { errorText } from "../../../lib/api-error";
import { useResetSecondFactor } from "../api/reset-second-factor";

/** An administrator turns another account's two-step sign-in off (a lost phone), after saying so. */
export function ResetSecondFactorModal({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const reset = useResetSecondFactor(user.id);
  return (
    <ModalShell title="Reset Two-Step Sign-In" onClose={onClose}>
      <Stack gap="sm">
        <MutationResult
          mutation={reset}
          success={reset.data?.message}
          failure={(error) => errorText(error, "Failed to reset two-step sign-in. Please try again.")}
        />
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
