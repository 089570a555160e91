import type { ConfirmFlagImportRequest, ConfirmFlagImportResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** A week of 5,000 students is written in one transaction: far beyond the 15 s default. */
export const CONFIRM_TIMEOUT_MS = 5 * 60_000;

/** POST /flag-upload/confirm-flag-import: imports the server's own flags for the rows kept. */
export function confirmFlagImport(body: ConfirmFlagImportRequest, signal?: AbortSignal) {
  return apiRequest<ConfirmFlagImportResponse>("/flag-upload/confirm-flag-import", {
    method: "POST",
    body,
    signal,
    timeoutMs: CONFIRM_TIMEOUT_MS,
  });
}

export function useConfirmFlagImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, signal }: { body: ConfirmFlagImportRequest; signal?: AbortSignal }) =>
      confirmFlagImport(body, signal),
    // New flags change students' weeks (the detail modal's Flags tab, the dashboard figures) and
    // add a batch to Recent imports.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.weeklyData.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.imports.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.students.all }),
      ]),
  });
}
