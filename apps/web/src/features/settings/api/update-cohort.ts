import type { CohortMutationResponse, UpdateCohortRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function updateCohort(id: number, body: UpdateCohortRequest) {
  return apiRequest<CohortMutationResponse>(`/cohorts/${id}`, { method: "PATCH", body });
}

export function useUpdateCohort(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCohortRequest) => updateCohort(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.cohorts.all }),
  });
}
