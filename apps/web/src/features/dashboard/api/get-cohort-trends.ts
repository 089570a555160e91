import type { CohortTrendsResponse, MeetingTypeFilter, TrendPoint } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { type DashboardFilters, filterQuery } from "./dashboard-filters";
import { queryKeys } from "../../../lib/query-keys";

export async function getCohortTrends(
  filters: DashboardFilters,
  meetingType: MeetingTypeFilter,
  q = "",
  signal?: AbortSignal,
): Promise<TrendPoint[]> {
  const reply = await apiRequest<CohortTrendsResponse>("/attendance/cohort-trends", {
    signal,
    query: { ...filterQuery(filters, q), meetingType },
  });
  return listData(reply);
}

/**
 * Weekly present and late percentages per meeting type for the chart, the table and the
 * attendance card; the search text narrows them to the students it finds, as it does the totals.
 */
export function cohortTrendsQuery(filters: DashboardFilters, meetingType: MeetingTypeFilter, q = "") {
  return queryOptions({
    queryKey: queryKeys.attendance.trends.list({ ...filters, meetingType, q }),
    queryFn: ({ signal }) => getCohortTrends(filters, meetingType, q, signal),
  });
}

export function useCohortTrends(filters: DashboardFilters, meetingType: MeetingTypeFilter, q = "", enabled = true) {
  return useQuery({ ...cohortTrendsQuery(filters, meetingType, q), enabled });
}
