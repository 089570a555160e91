import { ACCESS_LOG_LIMITS, type AccessAction, type AccessLogEntry, type StudentAccessLogResponse } from "@tally/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** The Access tab's filters: empty strings are "any". */
export interface AccessLogFilter {
  action: AccessAction | "";
  from: string;
  to: string;
}

const queryOf = (f: AccessLogFilter, limit: number, offset: number) => ({
  action: f.action || undefined,
  from: f.from || undefined,
  to: f.to || undefined,
  limit,
  offset,
});

/** GET /students/:id/access-log: a page of who read or exported the student's records, newest first. */
export function getStudentAccessLog(studentId: number, f: AccessLogFilter, page: { limit: number; offset: number }, signal?: AbortSignal) {
  return apiRequest<StudentAccessLogResponse>(`/students/${studentId}/access-log`, { signal, query: queryOf(f, page.limit, page.offset) });
}

/** Every entry of the filters, a full page at a time (the CSV). */
export async function getWholeStudentAccessLog(studentId: number, f: AccessLogFilter): Promise<AccessLogEntry[]> {
  const all: AccessLogEntry[] = [];
  for (let offset = 0; ; offset += ACCESS_LOG_LIMITS.maxPageSize) {
    const { data, total } = await getStudentAccessLog(studentId, f, { limit: ACCESS_LOG_LIMITS.maxPageSize, offset });
    all.push(...data);
    if (data.length === 0 || all.length >= total) return all;
  }
}

export function studentAccessLogQuery(studentId: number, f: AccessLogFilter, page: { limit: number; offset: number }) {
  return queryOptions({
    queryKey: queryKeys.accessLog.student(studentId, { ...f, ...page }),
    queryFn: ({ signal }) => getStudentAccessLog(studentId, f, page, signal),
    // Every opening of the student adds to it: always read it afresh.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useStudentAccessLog(studentId: number, f: AccessLogFilter, page: { limit: number; offset: number }) {
  return useQuery(studentAccessLogQuery(studentId, f, page));
}
