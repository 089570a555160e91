import type { CohortItem, CohortsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** Under the shared ["cohorts"] key, so a cohort added or edited in Settings shows up here too. */
/** GET /cohorts/active: cohorts running now, starting within 14 days or ended within 28 days. */
export async function getActiveCohorts(signal?: AbortSignal): Promise<CohortItem[]> {
  return listData(await apiRequest<CohortsResponse>("/cohorts/active", { signal }));
}

export const activeCohortsQuery = () =>
  queryOptions({ queryKey: queryKeys.cohorts.active, queryFn: ({ signal }) => getActiveCohorts(signal) });

export function useActiveCohorts() {
  return useQuery(activeCohortsQuery());
}
