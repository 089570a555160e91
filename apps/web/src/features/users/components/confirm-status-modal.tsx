import { Button, Group, Stack, Text } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { ModalShell } from "../../../components/modal-shell";
import { DARK_SHADES } from "../lib/user-rules";

interface Props {
  user: UserListItem;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Confirm Deactivation" for an active account, "Confirm Reactivation" for an inactive one. */
export function ConfirmStatusModal({ user, onConfirm, onClose }: Props) {
  const deactivating = user.is_active;
  return (
    <ModalShell title={deactivating ? "Confirm Deactivation" : "Confirm Reactivation"} onClose={onClose} size="sm">
      <Stack gap="md">
        <Text data-testid="confirm-text">
          {deactivating
            ? `Are you sure you want to deactivate user "${user.username}"? They will no longer be able to log in.`
            : `Are you sure you want to reactivate user "${user.username}"? A password reset will be sent and they will be able to log in again.`}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={deactivating ? "red" : DARK_SHADES.green} onClick={onConfirm} data-autofocus>
            {deactivating ? "Deactivate" : "Reactivate"}
          </Button>
        </Group>
      </Stack>
    </ModalShell>
  );
}
