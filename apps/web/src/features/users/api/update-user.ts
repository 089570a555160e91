import type { UpdateUserRequest, UserMutationResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function updateUser(id: number, body: UpdateUserRequest) {
  return apiRequest<UserMutationResponse>(`/users/${id}`, { method: "PUT", body });
}

export function useUpdateUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserRequest) => updateUser(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
