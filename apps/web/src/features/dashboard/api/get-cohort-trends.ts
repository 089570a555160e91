import type { CohortTrendsResponse, MeetingTypeFilter, TrendPoint } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { type DashboardFilters, filterQuery } from "./dashboard-filters";
import { queryKeys } from "../../../lib/query-keys";

export async function getCohortTrends(
  filters: DashboardFilters,
  meetingType: MeetingTypeFilter,
  signal?: AbortSignal,
): Promise<TrendPoint[]> {
  const reply = await apiRequest<CohortTrendsResponse>("/attendance/cohort-trends", {
    signal,
    query: { ...filterQuery(filters), meetingType },
  });
  return listData(reply);
}

/** Weekly present and late percentages per meeting type for the chart and the table. */
export function cohortTrendsQuery(filters: DashboardFilters, meetingType: MeetingTypeFilter) {
  return queryOptions({
    queryKey: queryKeys.attendance.trends.list({ ...filters, meetingType }),
    queryFn: ({ signal }) => getCohortTrends(filters, meetingType, signal),
  });
}

export function useCohortTrends(filters: DashboardFilters, meetingType: MeetingTypeFilter) {
  return useQuery(cohortTrendsQuery(filters, meetingType));
}
