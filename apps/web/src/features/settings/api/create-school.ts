import type { CreateSchoolRequest, SchoolMutationResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function createSchool(body: CreateSchoolRequest) {
  return apiRequest<SchoolMutationResponse>("/schools", { method: "POST", body });
}

export function useCreateSchool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSchool,
    // Every school list (pickers, filters, this admin list) sits under ["schools"].
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.schools.all }),
  });
}
