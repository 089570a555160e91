import type { StudentAlerts } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** GET /api/students/:id/alerts: the student's alerts with their timelines, and the weeks with a follow-up note. */
export function getStudentAlerts(studentId: number, signal?: AbortSignal): Promise<StudentAlerts> {
  return apiRequest<StudentAlerts>(`/students/${studentId}/alerts`, { signal });
}

export function studentAlertsQuery(studentId: number) {
  return queryOptions({
    queryKey: queryKeys.alerts.student(studentId),
    queryFn: ({ signal }) => getStudentAlerts(studentId, signal),
  });
}

export function useStudentAlerts(studentId: number, enabled = true) {
  return useQuery({ ...studentAlertsQuery(studentId), enabled });
}
