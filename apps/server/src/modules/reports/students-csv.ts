import { csvRecord, type ReportStudent, STUDENTS_CSV_COLUMNS, UTF8_BOM } from "@tally/contract";

/** The byte order mark and the header row. */
export function csvHead(): string {
  return UTF8_BOM + csvRecord(STUDENTS_CSV_COLUMNS);
}

/** One page of students as CSV records. */
export function csvRows(students: readonly ReportStudent[]): string {
  let out = "";
  for (const s of students) {
    out += csvRecord([s.first_name, s.last_name, s.school_name, s.cohort_name, s.team_name, s.presentPct, s.latePct, s.absentPct]);
  }
  return out;
}
