import type { SchoolRef, UserSchoolsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

export async function getUserSchools(id: number, signal?: AbortSignal): Promise<SchoolRef[]> {
  return listData(await apiRequest<UserSchoolsResponse>(`/users/${id}/schools`, { signal }));
}

export function userSchoolsQuery(id: number) {
  return queryOptions({
    queryKey: queryKeys.users.schools(id),
    queryFn: ({ signal }) => getUserSchools(id, signal),
    // The panel edits a copy of this list: start from what the server holds now.
    staleTime: 0,
  });
}

export function useUserSchools(id: number) {
  return useQuery(userSchoolsQuery(id));
}
