import type { RegisterRequest, RegisterResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Spec section 2: the list reloads 500 ms after a user is created (a refetch, not a page reload). */
export const CREATED_REFRESH_DELAY_MS = 500;

export function createUser(body: RegisterRequest) {
  return apiRequest<RegisterResponse>("/auth/register", { method: "POST", body });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all }), CREATED_REFRESH_DELAY_MS);
    },
  });
}
