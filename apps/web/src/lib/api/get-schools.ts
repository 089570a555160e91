import type { SchoolItem, SchoolsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api-client";
import { listData } from "./list-data";
import { queryKeys } from "../query-keys";

/** GET /schools: the schools the caller may see, for every screen that lists or picks them. */
export async function getSchools(signal?: AbortSignal): Promise<SchoolItem[]> {
  return listData(await apiRequest<SchoolsResponse>("/schools", { signal }));
}

export const schoolsQuery = queryOptions({
  queryKey: queryKeys.schools.all,
  queryFn: ({ signal }) => getSchools(signal),
});

export function useSchools(enabled = true) {
  return useQuery({ ...schoolsQuery, enabled });
}

const byName = (schools: SchoolItem[]) => schools.toSorted((a, b) => a.name.localeCompare(b.name));

/** The same list for the school pickers, sorted by name so it reads alphabetically. */
export function useSchoolOptions(enabled = true) {
  return useQuery({ ...schoolsQuery, enabled, select: byName });
}
