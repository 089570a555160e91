import { REPORT_LIMITS } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../lib/query-keys";
import { fetchFile, saveFile } from "./fetch-file";

/**
 * GET /students/:id/export: the student's ZIP (summary PDF, CSV per table, student.json), saved
 * under the server's name. Given the PDF report's time: the ZIP holds a PDF laid out the same way.
 */
export async function downloadStudentExport(studentId: number, signal?: AbortSignal): Promise<void> {
  const file = await fetchFile(`/students/${studentId}/export`, {}, {
    fallbackName: `student-${studentId}-export.zip`,
    timeoutMs: REPORT_LIMITS.pdfTimeoutMs,
    signal,
  });
  saveFile(file);
}

export function useDownloadStudentExport(studentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => downloadStudentExport(studentId),
    // The export is a new entry of the student's access record.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.accessLog.all }),
  });
}
