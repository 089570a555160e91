import type { UserListItem, UserMutationResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { restoreActiveState, setActiveOptimistically } from "./users-cache";
import { queryKeys } from "../../../lib/query-keys";

export function deactivateUser(id: number) {
  return apiRequest<UserMutationResponse>(`/users/${id}/deactivate`, { method: "POST" });
}

/** Shows the account as inactive at once; puts it back if the server refuses. */
export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserListItem) => deactivateUser(user.id),
    onMutate: (user) => setActiveOptimistically(queryClient, user.id, false),
    onError: (_error, _user, snapshot) => restoreActiveState(queryClient, snapshot),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
