import type { CohortVisibilityResponse, CohortVisibilitySetting } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** GET /settings/cohort-visibility: every stored row (all schools and per school). */
export async function getCohortVisibility(signal?: AbortSignal): Promise<CohortVisibilitySetting[]> {
  return listData(await apiRequest<CohortVisibilityResponse>("/settings/cohort-visibility", { signal }));
}

export const cohortVisibilityQuery = queryOptions({
  queryKey: queryKeys.settings.cohortVisibility,
  queryFn: ({ signal }) => getCohortVisibility(signal),
  // The screen edits on top of these rows: start from what the server holds now.
  staleTime: 0,
});

export function useCohortVisibility() {
  return useQuery(cohortVisibilityQuery);
}
