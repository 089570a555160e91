import type { StudentsSummary } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { type DashboardFilters, filterQuery } from "./dashboard-filters";
import { queryKeys } from "../../../lib/query-keys";

/** previousWeek: the cards show each total's change since this week began (a count alone needs none). */
export function getStudentsSummary(filters: DashboardFilters, q: string, signal?: AbortSignal, previousWeek = true) {
  return apiRequest<StudentsSummary>("/students/summary", {
    signal,
    query: { ...filterQuery(filters, q), previousWeek: previousWeek ? true : undefined },
  });
}

/** Exact counts for the stat cards, with the same filters as the student grid. */
export function studentsSummaryQuery(filters: DashboardFilters, q: string) {
  return queryOptions({
    queryKey: queryKeys.students.summary({ ...filters, q }),
    queryFn: ({ signal }) => getStudentsSummary(filters, q, signal),
  });
}

/** The same totals without last week's: how many students a search finds under other filters. */
export function studentsCountQuery(filters: DashboardFilters, q: string) {
  return queryOptions({
    queryKey: queryKeys.students.summary({ ...filters, q, previousWeek: false }),
    queryFn: ({ signal }) => getStudentsSummary(filters, q, signal, false),
  });
}

export function useStudentsSummary(filters: DashboardFilters, q: string) {
  return useQuery(studentsSummaryQuery(filters, q));
}
