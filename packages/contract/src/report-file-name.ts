/*
 * The name a saved or e-mailed report carries: what it covers and when, so a coordinator's
 * downloads folder and a funder's inbox tell the reports apart
 * ("Attendance-Autumn-2026-Internship-all-schools-2026-11-26.pdf"). The API's own
 * Content-Disposition keeps the spec's fixed name (REPORT_FILES); the web app and the report
 * e-mail both name the file with this one rule.
 */

/** What the report covers: a name for each filter chosen, undefined or null for "all". */
export interface ReportFileNames {
  schoolName?: string | null | undefined;
  cohortName?: string | null | undefined;
  teamName?: string | null | undefined;
  /** The search text, when the report is of a search ("search-garcia" in the name). */
  search?: string | null | undefined;
}

/** Letters and digits of a name, accents folded, every other run of characters one "-". */
export function fileNamePart(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

// A name with no Latin letter or digit at all still says a filter was chosen.
const part = (name: string | null | undefined, all: string, chosen: string) =>
  name ? fileNamePart(name) || chosen : all;

const pad = (n: number) => String(n).padStart(2, "0");

/** The day of `at` as YYYY-MM-DD in the local time of whoever names the file. */
export function localDay(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** "Attendance-{cohort|all-cohorts}-{school|all-schools}[-{team}][-search-{text}]-{YYYY-MM-DD}.{extension}". */
export function reportFileName(names: ReportFileNames, day: string, extension: "pdf" | "csv"): string {
  const parts = [
    "Attendance",
    part(names.cohortName, "all-cohorts", "cohort"),
    part(names.schoolName, "all-schools", "school"),
  ];
  if (names.teamName) parts.push(part(names.teamName, "", "team"));
  if (names.search) parts.push(`search-${part(names.search, "", "text")}`);
  parts.push(day);
  return `${parts.join("-")}.${extension}`;
}
