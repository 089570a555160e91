import type { SchoolItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export async function getSchools(signal?: AbortSignal): Promise<SchoolItem[]> {
  const reply = await apiRequest<{ data: SchoolItem[] }>("/schools", { signal });
  return reply.data;
}

export const schoolsQuery = queryOptions({
  queryKey: ["schools"],
  queryFn: ({ signal }) => getSchools(signal),
});

export function useSchools(enabled = true) {
  return useQuery({ ...schoolsQuery, enabled });
}
