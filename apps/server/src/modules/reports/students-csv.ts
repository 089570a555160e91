import { type ReportStudent, STUDENTS_CSV_COLUMNS } from "@tally/contract";

/** One CSV cell. Numbers are written as numbers; null and undefined as empty cells. */
type CsvCell = string | number | null | undefined;

// The web's rule (apps/web/src/lib/csv.ts), kept the same so both downloads read alike.
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** A leading one of these makes a spreadsheet read the cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The text of one cell: names come from imports, so a cell that would start a formula gets a
 * leading `'` unless it is a plain number; fields holding a comma, quote, CR or LF are quoted
 * with inner quotes doubled (RFC 4180).
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const row = (cells: readonly CsvCell[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** Excel reads a UTF-8 file as UTF-8 (accents intact) only when it starts with this mark. */
export const UTF8_BOM = "\uFEFF";

/** The byte order mark and the header row. */
export function csvHead(): string {
  return UTF8_BOM + row(STUDENTS_CSV_COLUMNS);
}

/** One page of students as CSV records. */
export function csvRows(students: readonly ReportStudent[]): string {
  let out = "";
  for (const s of students) {
    out += row([s.first_name, s.last_name, s.school_name, s.cohort_name, s.team_name, s.presentPct, s.latePct, s.absentPct]);
  }
  return out;
}
