import { LIMITS, type LoginLogRow, type LoginLogsQuery, type LoginLogsResponse } from "@tally/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type LoginStatusFilter = "all" | "successful" | "failed";

export interface LoginLogFilters {
  status: LoginStatusFilter;
  /** YYYY-MM-DD, both ends included; empty means open. */
  startDate: string;
  endDate: string;
}

/** The server's largest page: an export reads every page at this size. */
const EXPORT_PAGE_SIZE = 100;

function filterQuery(filters: LoginLogFilters): Omit<LoginLogsQuery, "limit" | "offset"> {
  return {
    successful: filters.status === "all" ? undefined : filters.status === "successful",
    start_date: filters.startDate || undefined,
    end_date: filters.endDate || undefined,
  };
}

export function getLoginLogs(
  id: number,
  filters: LoginLogFilters,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<LoginLogsResponse> {
  const query: LoginLogsQuery = { ...filterQuery(filters), limit: page.limit, offset: page.offset };
  return apiRequest<LoginLogsResponse>(`/users/${id}/login-logs`, { query, signal });
}

/** Every row matching the filters, page by page, for the CSV export. */
export async function getAllLoginLogs(id: number, filters: LoginLogFilters): Promise<LoginLogRow[]> {
  const rows: LoginLogRow[] = [];
  for (;;) {
    const reply = await getLoginLogs(id, filters, { limit: EXPORT_PAGE_SIZE, offset: rows.length });
    rows.push(...reply.rows);
    if (reply.rows.length === 0 || rows.length >= reply.count) return rows;
  }
}

export function loginLogsQuery(id: number, filters: LoginLogFilters, page: number) {
  const limit = LIMITS.loginHistoryPageSize;
  return queryOptions({
    queryKey: queryKeys.users.loginLogs(id, filters, page),
    queryFn: ({ signal }) => getLoginLogs(id, filters, { limit, offset: (page - 1) * limit }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useLoginLogs(id: number, filters: LoginLogFilters, page: number, enabled = true) {
  return useQuery({ ...loginLogsQuery(id, filters, page), enabled });
}
