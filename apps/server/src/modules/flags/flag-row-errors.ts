import { FLAG_FILE_FIELDS, FLAG_ROW_ERRORS_LISTED, type FlagFileField, type FlagRowError } from "@tally/contract";
import type { CrmRow, FlawedRow, ParsedReport, ProgressRow, ReflectionRow, RowError, StudentKey } from "../report-formats/report-types.js";

// What became of each bad row of the flag uploader's reports, in words the coordinator can act
// on: the row's own error, and that the row is skipped whole (issue 41.12), with what follows.

/** The student of the cohort a flawed row went to. */
export interface RowOwner {
  id: number;
  name: string;
  /** A progress or reflection row: the student's whole row of that report used instead; null for none. */
  usedRow?: number | null;
}

export interface FlagReports {
  crm: ParsedReport<CrmRow>;
  progress: ParsedReport<ProgressRow>;
  reflection: ParsedReport<ReflectionRow>;
}

/** A cell can hold 256 KB: a thousand of them must not make a reply of 256 MB. */
const MAX_VALUE_CHARS = 200;

/** A platform row with a bad value: another row of the student's used instead, or the flags its values decide left undecided. */
const skippedRow = (owner: RowOwner | undefined, who: string, undecided: string) => {
  if (!owner) return "this row is skipped";
  if (owner.usedRow) return `this row is skipped; row ${owner.usedRow} of ${who} is used`;
  return `this row is skipped: ${undecided} are not decided for ${who}`;
};

/** `owner`: the student of the cohort the row went to. */
const OUTCOMES: { [F in FlagFileField]: (row: FlawedRow<RowOf<F>>, who: string, owner: RowOwner | undefined) => string } = {
  progressReport: (_row, who, owner) => skippedRow(owner, who, "Behind on progress and Past due"),
  reflectionReport: (_row, who, owner) => skippedRow(owner, who, "Low hours and Low wellbeing"),
  attendanceReport: (row, who, owner) => {
    // Enrollees are told apart by the ID: a row without one belongs to no enrollee.
    if (row.benefitAssignmentId === null) return `this session of ${who} is not counted`;
    // Its enrollee is one of the unmatched rows (a row without a name has only its ID to go by).
    if (!owner) return `the enrollee of Benefit Assignment ID ${row.benefitAssignmentId} is matched to no student of this cohort (see the unmatched rows); this session is not counted`;
    return `this session of ${who} is not counted`;
  },
};

type RowOf<F extends FlagFileField> = F extends "progressReport" ? ProgressRow : F extends "reflectionReport" ? ReflectionRow : CrmRow;

const reportOf = (reports: FlagReports, field: FlagFileField): ParsedReport<StudentKey> =>
  field === "progressReport" ? reports.progress : field === "reflectionReport" ? reports.reflection : reports.crm;

/**
 * The reports' row errors, in the page's order of the files, each with its student and outcome:
 * the first FLAG_ROW_ERRORS_LISTED of them, and how many there are in all.
 */
export function describeRowErrors(reports: FlagReports, owners: ReadonlyMap<object, RowOwner>): { listed: FlagRowError[]; count: number } {
  const listed: FlagRowError[] = [];
  let count = 0;
  for (const field of FLAG_FILE_FIELDS) {
    const report = reportOf(reports, field);
    count += report.errors.length;
    if (listed.length >= FLAG_ROW_ERRORS_LISTED) continue;
    const flawedAt = new Map(report.flawed.map((row) => [row.row, row]));
    for (const error of report.errors.slice(0, FLAG_ROW_ERRORS_LISTED - listed.length)) {
      listed.push(rowErrorOf(field, error, flawedAt.get(error.row), owners));
    }
  }
  return { listed, count };
}

function rowErrorOf(report: FlagFileField, error: RowError, row: FlawedRow<StudentKey> | undefined, owners: ReadonlyMap<object, RowOwner>): FlagRowError {
  const owner = row ? owners.get(row) : undefined;
  // A CRM row may leave the name out (it has its Benefit Assignment ID).
  const student = owner?.name ?? (row?.fullName || null);
  const value = error.value.length > MAX_VALUE_CHARS ? `${error.value.slice(0, MAX_VALUE_CHARS)}…` : error.value;
  // Only a row that names nobody (or by a name with a control character) is not kept as a flawed row.
  const outcome = row
    ? (OUTCOMES[report] as (r: FlawedRow<StudentKey>, who: string, owner: RowOwner | undefined) => string)(row, student ?? row.fullName, owner)
    : error.value.trim() === ""
      ? "the row names no student and is not used"
      : "this row is not used";
  return { report, file: error.file, row: error.row, column: error.column, value, problem: error.problem, studentId: owner?.id ?? null, student, outcome };
}

/** The sentence of validationErrors: as the weekly import writes a row error, then the outcome. */
export const rowErrorSentence = (e: FlagRowError) => `${e.file} row ${e.row}, ${e.column} "${e.value}": ${e.problem} — ${e.outcome}`;
