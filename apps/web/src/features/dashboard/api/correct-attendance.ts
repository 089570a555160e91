import type { AttendanceRecordItem, UpdateAttendanceRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function correctAttendance(id: number, body: UpdateAttendanceRequest) {
  return apiRequest<AttendanceRecordItem>(`/attendance/${id}`, { method: "PUT", body });
}

/**
 * Corrects one meeting of a student: their records, the counts and trends that sum them, and
 * the alerts the correction may have raised or ended change with it.
 */
export function useCorrectAttendance(studentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateAttendanceRequest }) => correctAttendance(id, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.attendance.studentAll(studentId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.attendance.trends.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.students.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all }),
      ]);
    },
  });
}
