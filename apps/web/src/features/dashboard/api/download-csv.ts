import { REPORT_FILES } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { fetchFile, saveFile } from "./fetch-file";
import { csvDownloadName, type ReportFilters, reportFilter } from "./report-filters";

/** Every student of a large district streams for a while; longer than an ordinary call. */
export const CSV_TIMEOUT_MS = 120_000;

/** Fetches the students CSV (every row of the filters) and saves it under the server's name, with the search named in it. */
export async function downloadCsv(report: ReportFilters, signal?: AbortSignal): Promise<void> {
  const file = await fetchFile("/reports/students.csv", reportFilter(report), {
    fallbackName: REPORT_FILES.csv,
    timeoutMs: CSV_TIMEOUT_MS,
    signal,
  });
  saveFile({ blob: file.blob, fileName: csvDownloadName(file.fileName, report) });
}

export function useDownloadCsv() {
  return useMutation({ mutationFn: (report: ReportFilters) => downloadCsv(report) });
}
