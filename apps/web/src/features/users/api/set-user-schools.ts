import type { SetUserSchoolsRequest, SetUserSchoolsResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Replaces a district user's school access (at least one school). */
export function setUserSchools(id: number, schoolIds: number[]) {
  const body: SetUserSchoolsRequest = { schoolIds };
  return apiRequest<SetUserSchoolsResponse>(`/users/${id}/schools`, { method: "PUT", body });
}

export function useSetUserSchools(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schoolIds: number[]) => setUserSchools(id, schoolIds),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
