import type { UserListItem, UsersListResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** Every query about accounts starts with this key, so one invalidation refreshes them all. */
export async function getUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  return listData(await apiRequest<UsersListResponse>("/users", { signal }));
}

export const usersQuery = queryOptions({
  queryKey: queryKeys.users.all,
  queryFn: ({ signal }) => getUsers(signal),
});

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery, enabled });
}
