import type { SetUserSchoolRequest, UserMutationResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** A school user's one school. */
export function setUserSchool(id: number, schoolId: number) {
  const body: SetUserSchoolRequest = { school_id: schoolId };
  return apiRequest<UserMutationResponse>(`/users/${id}/school`, { method: "PUT", body });
}

export function useSetUserSchool(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schoolId: number) => setUserSchool(id, schoolId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
