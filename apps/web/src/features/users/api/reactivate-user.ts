import type { UserListItem, UserMutationResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { restoreActiveState, setActiveOptimistically } from "./users-cache";
import { queryKeys } from "../../../lib/query-keys";

/** The server also e-mails the owner a password-reset link. */
export function reactivateUser(id: number) {
  return apiRequest<UserMutationResponse>(`/users/${id}/reactivate`, { method: "POST" });
}

/** Shows the account as active at once; puts it back if the server refuses. */
export function useReactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserListItem) => reactivateUser(user.id),
    onMutate: (user) => setActiveOptimistically(queryClient, user.id, true),
    onError: (_error, _user, snapshot) => restoreActiveState(queryClient, snapshot),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
