import type { EraseStudentRequest, ErasureCounts } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function eraseStudent(id: number, body: EraseStudentRequest) {
  return apiRequest<ErasureCounts>(`/students/${id}`, { method: "DELETE", body });
}

/** Erases a student (issue 32); lists, counts, trends and the record of access change with it. */
export function useEraseStudent(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EraseStudentRequest) => eraseStudent(id, body),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.students.detail(id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.students.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.attendance.trends.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accessLog.all }),
      ]);
    },
  });
}
