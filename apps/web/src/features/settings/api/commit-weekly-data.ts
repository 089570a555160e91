import type { ImportCommit } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { uploadWithProgress } from "../../../lib/upload-with-progress";
import type { ImportUploadVariables } from "./preview-weekly-data";

/** POST /flag-upload/commit-weekly-data: the server reads the files again and writes them in one transaction. */
export function commitWeeklyData({ form, ...options }: ImportUploadVariables): Promise<ImportCommit> {
  return uploadWithProgress<ImportCommit>("/flag-upload/commit-weekly-data", form, options);
}

export function useCommitWeeklyData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitWeeklyData,
    // A week of data touches cohorts, students, teams, attendance, trends, weekly data and the
    // import list: every cached query may be stale, so all are refetched.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
