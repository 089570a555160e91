import { type PdfReportParams, REPORT_FILES, REPORT_LIMITS } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { fetchFile, saveFile } from "./fetch-file";
import { type ReportFilters, reportDownloadName, reportFilter } from "./report-filters";

/** The spec's query of GET /pdf-reports/generate for these filters. */
export function pdfReportParams(report: ReportFilters): PdfReportParams {
  return {
    ...reportFilter(report),
    totalSchools: report.totals?.schoolCount,
    totalStudents: report.totals?.studentCount,
    totalCohorts: report.totals?.cohortCount,
    totalTeams: report.totals?.teamCount,
    schoolName: report.schoolName,
    cohortName: report.cohortName,
    teamName: report.teamName,
    includeStudents: true,
    studentLimit: REPORT_LIMITS.pdfStudentLimit,
  };
}

/** Fetches the PDF report (given up after 30 s, spec §9) and saves it named for its filters and day. */
export async function downloadPdf(report: ReportFilters, signal?: AbortSignal): Promise<void> {
  const file = await fetchFile("/pdf-reports/generate", pdfReportParams(report), {
    fallbackName: REPORT_FILES.pdf,
    timeoutMs: REPORT_LIMITS.pdfTimeoutMs,
    signal,
  });
  saveFile({ blob: file.blob, fileName: reportDownloadName(report, "pdf") });
}

export function useDownloadPdf() {
  return useMutation({ mutationFn: (report: ReportFilters) => downloadPdf(report) });
}
