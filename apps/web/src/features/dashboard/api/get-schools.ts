import type { SchoolItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "./list-data";

export async function getSchools(signal?: AbortSignal): Promise<SchoolItem[]> {
  const reply = await apiRequest<unknown>("/schools", { signal });
  return listData<SchoolItem>(reply);
}

export const schoolsQuery = queryOptions({
  queryKey: ["schools"],
  queryFn: ({ signal }) => getSchools(signal),
});

export function useSchools(enabled = true) {
  return useQuery({ ...schoolsQuery, enabled });
}
