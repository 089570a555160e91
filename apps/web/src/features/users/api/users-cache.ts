import type { UserListItem } from "@tally/contract";
import type { QueryClient } from "@tanstack/react-query";
import { USERS_KEY } from "./get-users";

export interface ActiveStateSnapshot {
  previous: UserListItem[] | undefined;
}

/**
 * Flips one account's active flag in the cached list at once (spec section 4: the list is
 * updated optimistically) and returns what to put back if the call fails.
 */
export async function setActiveOptimistically(
  queryClient: QueryClient,
  id: number,
  isActive: boolean,
): Promise<ActiveStateSnapshot> {
  // A refetch already under way would overwrite the optimistic value with the old one.
  await queryClient.cancelQueries({ queryKey: USERS_KEY, exact: true });
  const previous = queryClient.getQueryData<UserListItem[]>(USERS_KEY);
  queryClient.setQueryData<UserListItem[]>(USERS_KEY, (list) =>
    list?.map((u) => (u.id === id ? { ...u, is_active: isActive } : u)),
  );
  return { previous };
}

export function restoreActiveState(queryClient: QueryClient, snapshot: ActiveStateSnapshot | undefined): void {
  if (snapshot?.previous) queryClient.setQueryData(USERS_KEY, snapshot.previous);
}
