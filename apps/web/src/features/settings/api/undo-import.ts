import type { ImportUndoResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** POST /imports/:id/undo: restores the state before that batch (only the newest of its cohort). */
export function undoImport(id: number) {
  return apiRequest<ImportUndoResponse>(`/imports/${id}/undo`, { method: "POST" });
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    // Undo can remove students, attendance, weekly data and the cohort itself: refetch everything.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
