import type { UserListItem } from "@tally/contract";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../lib/query-keys";

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
  await queryClient.cancelQueries({ queryKey: queryKeys.users.all, exact: true });
  const previous = queryClient.getQueryData<UserListItem[]>(queryKeys.users.all);
  queryClient.setQueryData<UserListItem[]>(queryKeys.users.all, (list) =>
    list?.map((u) => (u.id === id ? { ...u, is_active: isActive } : u)),
  );
  return { previous };
}

export function restoreActiveState(queryClient: QueryClient, snapshot: ActiveStateSnapshot | undefined): void {
  if (snapshot?.previous) queryClient.setQueryData(queryKeys.users.all, snapshot.previous);
}
