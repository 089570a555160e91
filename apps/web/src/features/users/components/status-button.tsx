import { Button } from "@mantine/core";
import type { UserListItem } from "@tally/contract";
import { DARK_SHADES } from "../lib/user-rules";

interface Props {
  user: UserListItem;
  onClick: () => void;
  /** The table names the account in the label; the list row sits under the account's name already. */
  "aria-label"?: string;
}

/** Deactivate (red) for an active account, Reactivate (green) for an inactive one. */
export function StatusButton({ user, onClick, "aria-label": ariaLabel }: Props) {
  return (
    <Button
      size="compact-sm"
      variant="light"
      color={user.is_active ? "red" : "green"}
      c={user.is_active ? undefined : DARK_SHADES.green}
      onClick={onClick}
      aria-label={ariaLabel}
    >
      {user.is_active ? "Deactivate" : "Reactivate"}
    </Button>
  );
}
