import { type ImportUndoConflict, importUndoConflictSchema, type ImportUndoResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api-error";
import { apiRequest } from "../../../lib/api-client";

export interface UndoImportInput {
  id: number;
  /** Undo even though students of the import were edited since, keeping those students. */
  keepEditedStudents?: boolean;
}

/** POST /imports/:id/undo: restores the state before that batch (only the newest of its cohort). */
export function undoImport({ id, keepEditedStudents = false }: UndoImportInput) {
  return apiRequest<ImportUndoResponse>(`/imports/${id}/undo`, {
    method: "POST",
    ...(keepEditedStudents ? { body: { keepEditedStudents: true } } : {}),
  });
}

/** The students edited since the import when the undo was refused for them (409 STUDENTS_EDITED); else null. */
export function editedStudentsRefusal(error: unknown): ImportUndoConflict | null {
  if (!(error instanceof ApiError) || error.code !== "STUDENTS_EDITED") return null;
  const parsed = importUndoConflictSchema.safeParse(error.body);
  return parsed.success && parsed.data.editedStudents ? parsed.data : null;
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    // Undo can remove students, attendance, weekly data and the cohort itself: refetch everything.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
