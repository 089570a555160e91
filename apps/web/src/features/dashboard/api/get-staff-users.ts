import type { UserListItem, UsersListResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/**
 * GET /users (admins only): the staff an alert can be assigned to. The same key as the user
 * management list, so both share one cache.
 */
export async function getStaffUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  return listData(await apiRequest<UsersListResponse>("/users", { signal }));
}

export function staffUsersQuery() {
  return queryOptions({ queryKey: queryKeys.users.all, queryFn: ({ signal }) => getStaffUsers(signal) });
}

export function useStaffUsers(enabled: boolean) {
  return useQuery({ ...staffUsersQuery(), enabled });
}
