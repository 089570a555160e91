import type { UserListItem, UsersListResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";

/** Every query about accounts starts with this key, so one invalidation refreshes them all. */
export const USERS_KEY = ["users"] as const;

export async function getUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  return listData(await apiRequest<UsersListResponse>("/users", { signal }));
}

export const usersQuery = queryOptions({
  queryKey: USERS_KEY,
  queryFn: ({ signal }) => getUsers(signal),
});

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery, enabled });
}
