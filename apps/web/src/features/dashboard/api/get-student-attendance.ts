import type { StudentAttendanceQuery, StudentAttendanceResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getStudentAttendance(studentId: number, cohortId: number, signal?: AbortSignal) {
  const query: StudentAttendanceQuery = { cohortId };
  return apiRequest<StudentAttendanceResponse>(`/attendance/student/${studentId}`, { signal, query });
}

/** A student's attendance records in one cohort. */
export function studentAttendanceQuery(studentId: number, cohortId: number | null) {
  return queryOptions({
    queryKey: queryKeys.attendance.student(studentId, cohortId),
    queryFn: ({ signal }) => getStudentAttendance(studentId, cohortId ?? 0, signal),
    enabled: cohortId !== null,
  });
}

export function useStudentAttendance(studentId: number, cohortId: number | null) {
  return useQuery(studentAttendanceQuery(studentId, cohortId));
}
