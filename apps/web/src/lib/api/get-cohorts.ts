import { type CohortItem, type CohortsResponse, dashboardFilterParams } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api-client";
import { listData } from "./list-data";
import { queryKeys } from "../query-keys";

/** GET /cohorts: the cohorts the caller may see, narrowed to one school when given. */
export async function getCohorts(schoolId: number | null, signal?: AbortSignal): Promise<CohortItem[]> {
  const query = dashboardFilterParams({ schoolIds: schoolId === null ? undefined : [schoolId] });
  return listData(await apiRequest<CohortsResponse>("/cohorts", { signal, query }));
}

export function cohortsQuery(schoolId: number | null = null) {
  return queryOptions({
    queryKey: queryKeys.cohorts.visible(schoolId),
    queryFn: ({ signal }) => getCohorts(schoolId, signal),
  });
}

export function useCohorts(schoolId: number | null = null, enabled = true) {
  return useQuery({ ...cohortsQuery(schoolId), enabled });
}
