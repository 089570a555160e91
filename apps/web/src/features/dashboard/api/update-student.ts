import type { StudentDetail, UpdateStudentRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function updateStudent(id: number, body: UpdateStudentRequest) {
  return apiRequest<StudentDetail>(`/students/${id}`, { method: "PUT", body });
}

/** Corrects a student; lists, counts, the detail and team-based trends change with it. */
export function useUpdateStudent(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateStudentRequest) => updateStudent(id, body),
    onSuccess: async (detail) => {
      queryClient.setQueryData(queryKeys.students.detail(id), detail);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.students.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.attendance.trends.all }),
      ]);
    },
  });
}
