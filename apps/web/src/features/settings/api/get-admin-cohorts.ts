import type { AdminCohortItem, AdminCohortsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** Under the shared ["cohorts"] key, so every change of a cohort refreshes the dashboards' lists too. */
/** GET /cohorts/admin: every cohort but the demo one, with student and week counts (admins). */
export async function getAdminCohorts(signal?: AbortSignal): Promise<AdminCohortItem[]> {
  return listData(await apiRequest<AdminCohortsResponse>("/cohorts/admin", { signal }));
}

export function useAdminCohorts(enabled = true) {
  return useQuery(queryOptions({ queryKey: queryKeys.cohorts.admin, queryFn: ({ signal }) => getAdminCohorts(signal), enabled }));
}
