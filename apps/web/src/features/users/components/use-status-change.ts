import type { UserListItem } from "@tally/contract";
import { errorText } from "../../../lib/api-error";
import { useDeactivateUser } from "../api/deactivate-user";
import { useReactivateUser } from "../api/reactivate-user";

interface Callbacks {
  onSuccess: (text: string) => void;
  onError: (text: string) => void;
  /** The screen's own text when the server gives none. */
  fallback: (user: UserListItem) => string;
}

/** Deactivates an active account or reactivates an inactive one; the list changes at once. */
export function useStatusChange({ onSuccess, onError, fallback }: Callbacks) {
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  return (user: UserListItem) => {
    const handlers = {
      onError: (error: unknown) => onError(errorText(error, fallback(user))),
    };
    if (user.is_active) {
      deactivate.mutate(user, {
        ...handlers,
        onSuccess: () => onSuccess(`User ${user.username} has been deactivated successfully`),
      });
    } else {
      reactivate.mutate(user, {
        ...handlers,
        onSuccess: () =>
          onSuccess(`User ${user.username} has been reactivated successfully and a password reset has been sent`),
      });
    }
  };
}
