import type { CohortItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "./list-data";

export async function getCohorts(schoolId: number | null, signal?: AbortSignal): Promise<CohortItem[]> {
  const reply = await apiRequest<unknown>("/cohorts", {
    signal,
    query: { school_id: schoolId ?? undefined },
  });
  return listData<CohortItem>(reply);
}

/** Cohorts the caller may see, narrowed to one school when chosen. */
export function cohortsQuery(schoolId: number | null) {
  return queryOptions({
    queryKey: ["cohorts", { schoolId }],
    queryFn: ({ signal }) => getCohorts(schoolId, signal),
  });
}

export function useCohorts(schoolId: number | null) {
  return useQuery(cohortsQuery(schoolId));
}
