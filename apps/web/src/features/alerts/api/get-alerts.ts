import type { AlertList } from "@tally/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { type AlertFilters, alertsApiQuery } from "./alert-filters";

export const ALERTS_PER_PAGE = 50;

/** GET /api/alerts: one page of the call list, urgent first (the server's order). */
export function getAlerts(filters: AlertFilters, signal?: AbortSignal): Promise<AlertList> {
  return apiRequest<AlertList>("/alerts", { query: alertsApiQuery(filters, ALERTS_PER_PAGE), signal });
}

export function alertsQuery(filters: AlertFilters) {
  return queryOptions({
    queryKey: queryKeys.alerts.list(filters),
    queryFn: ({ signal }) => getAlerts(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAlerts(filters: AlertFilters) {
  return useQuery(alertsQuery(filters));
}
