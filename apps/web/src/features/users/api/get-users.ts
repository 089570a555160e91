import type { UserListItem, UsersListResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** Every query about accounts starts with this key, so one invalidation refreshes them all. */
export const USERS_KEY = ["users"] as const;

export async function getUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  const reply = await apiRequest<UsersListResponse>("/users", { signal });
  return Array.isArray(reply?.data) ? reply.data : [];
}

export const usersQuery = queryOptions({
  queryKey: USERS_KEY,
  queryFn: ({ signal }) => getUsers(signal),
});

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery, enabled });
}
