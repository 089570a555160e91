import type { StudentsResponse } from "@tally/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { type DashboardFilters, filterQuery } from "./dashboard-filters";
import { queryKeys } from "../../../lib/query-keys";

export interface StudentsPage {
  filters: DashboardFilters;
  q: string;
  page: number;
  limit: number;
}

export function getStudents({ filters, q, page, limit }: StudentsPage, signal?: AbortSignal) {
  return apiRequest<StudentsResponse>("/students", {
    signal,
    query: { ...filterQuery(filters, q), page, limit },
  });
}

/** One server-side page of the student grid. */
export function studentsQuery(args: StudentsPage) {
  return queryOptions({
    queryKey: queryKeys.students.list({ ...args.filters, q: args.q, page: args.page, limit: args.limit }),
    queryFn: ({ signal }) => getStudents(args, signal),
    // Paging or narrowing keeps the last page on screen instead of flashing a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useStudents(args: StudentsPage) {
  return useQuery(studentsQuery(args));
}
