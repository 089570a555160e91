import type { AlertSummary } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api-client";
import { queryKeys } from "../query-keys";

/**
 * The filters the dashboard and the "Needs attention" list share (GET /api/alerts/summary):
 * both features read the summary, so its query lives here rather than in either.
 */
export interface AlertScope {
  schoolId: number | null;
  cohortId: number | null;
  /** The dashboard's search: the card counts the students every other figure counts. Empty: none. */
  q: string;
}

function scopeQuery(scope: AlertScope): Record<string, number | string | undefined> {
  return { schoolId: scope.schoolId ?? undefined, cohortId: scope.cohortId ?? undefined, q: scope.q.trim() || undefined };
}

export function getAlertSummary(scope: AlertScope, signal?: AbortSignal): Promise<AlertSummary> {
  return apiRequest<AlertSummary>("/alerts/summary", { query: scopeQuery(scope), signal });
}

export function alertSummaryQuery(scope: AlertScope) {
  return queryOptions({
    queryKey: queryKeys.alerts.summary(scope),
    queryFn: ({ signal }) => getAlertSummary(scope, signal),
  });
}

export function useAlertSummary(scope: AlertScope, enabled = true) {
  return useQuery({ ...alertSummaryQuery(scope), enabled });
}

/** "/alerts?schoolId=1&cohortId=10&q=ada": the call list under the dashboard's filters and search. */
export function alertsLink(scope: AlertScope): string {
  const params = new URLSearchParams();
  if (scope.schoolId !== null) params.set("schoolId", String(scope.schoolId));
  if (scope.cohortId !== null) params.set("cohortId", String(scope.cohortId));
  if (scope.q.trim()) params.set("q", scope.q.trim());
  const search = params.toString();
  return search ? `/alerts?${search}` : "/alerts";
}
