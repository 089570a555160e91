import type { SchoolItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export async function getSchools(signal?: AbortSignal): Promise<SchoolItem[]> {
  const reply = await apiRequest<{ data?: SchoolItem[] }>("/schools", { signal });
  return Array.isArray(reply?.data) ? reply.data : [];
}

/** Every school, for the school pickers; sorted by name so the lists read alphabetically. */
export const schoolOptionsQuery = queryOptions({
  queryKey: ["schools", "options"],
  queryFn: async ({ signal }) => (await getSchools(signal)).toSorted((a, b) => a.name.localeCompare(b.name)),
});

export function useSchoolOptions(enabled = true) {
  return useQuery({ ...schoolOptionsQuery, enabled });
}
