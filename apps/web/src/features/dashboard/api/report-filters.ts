import { fileNamePart, localDay, type ReportFilter, reportFileName } from "@tally/contract";

/**
 * What an export covers: the dashboard's current school, cohort and team (null: all), with the
 * names and totals it shows. The names and totals are sent for compatibility with the spec's
 * PDF call only; the server counts, names and scopes everything itself.
 */
export interface ReportFilters {
  schoolId: number | null;
  cohortId: number | null;
  teamId: number | null;
  /** The dashboard's search text ("" or absent: none); the server reads it as the dashboard's search does. */
  q?: string | undefined;
  schoolName?: string | undefined;
  cohortName?: string | undefined;
  teamName?: string | undefined;
  totals?: { schoolCount: number; studentCount: number; cohortCount: number; teamCount: number } | undefined;
}

/** The ids the server reads (schoolId, cohortId, teamId) and the search, leaving out "all" and no search. */
export function reportFilter(report: ReportFilters): ReportFilter {
  const out: ReportFilter = {};
  if (report.schoolId !== null) out.schoolId = report.schoolId;
  if (report.cohortId !== null) out.cohortId = report.cohortId;
  if (report.teamId !== null) out.teamId = report.teamId;
  const q = report.q?.trim();
  if (q) out.q = q;
  return out;
}

/**
 * The name a saved report gets: its filters and today's date, by the contract's rule that the
 * report e-mail's attachment follows too (the API's header keeps the spec's fixed name).
 */
export function reportDownloadName(report: ReportFilters, extension: "pdf" | "csv", now = new Date()): string {
  const names = {
    schoolName: report.schoolId === null ? undefined : report.schoolName,
    cohortName: report.cohortId === null ? undefined : report.cohortName,
    teamName: report.teamId === null ? undefined : report.teamName,
    search: report.q?.trim(),
  };
  return reportFileName(names, localDay(now), extension);
}

/** The server's CSV name, with the search in it when there is one ("tally-students-search-garcia.csv"). */
export function csvDownloadName(serverName: string, report: ReportFilters): string {
  const search = fileNamePart(report.q?.trim() ?? "");
  return search ? serverName.replace(/(\.csv)?$/i, `-search-${search}$1`) : serverName;
}
