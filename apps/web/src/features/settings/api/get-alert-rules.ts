import type { AlertRules } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** GET /api/alert-rules: the programme's rules, every cohort override and the schedule. */
export function getAlertRules(signal?: AbortSignal): Promise<AlertRules> {
  return apiRequest<AlertRules>("/alert-rules", { signal });
}

export const alertRulesQuery = queryOptions({
  queryKey: queryKeys.alertRules,
  queryFn: ({ signal }) => getAlertRules(signal),
});

export function useAlertRules() {
  return useQuery(alertRulesQuery);
}
