import type { SchoolMutationResponse, UpdateSchoolRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function updateSchool(id: number, body: UpdateSchoolRequest) {
  return apiRequest<SchoolMutationResponse>(`/schools/${id}`, { method: "PATCH", body });
}

export function useUpdateSchool(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSchoolRequest) => updateSchool(id, body),
    // A renamed school shows under its new name everywhere it is listed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.schools.all }),
  });
}
