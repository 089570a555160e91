import type { CohortMutationResponse, CreateCohortRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function createCohort(body: CreateCohortRequest) {
  return apiRequest<CohortMutationResponse>("/cohorts", { method: "POST", body });
}

export function useCreateCohort() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCohort,
    // Every cohort list (filters, visibility toggles, this admin list) sits under ["cohorts"].
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.cohorts.all }),
  });
}
