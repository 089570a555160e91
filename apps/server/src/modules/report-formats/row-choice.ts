import type { ReportRowChoice } from "@tally/contract";
import type { FlawedRow, ProgressRow, ReflectionRow, StudentKey } from "./report-types.js";

// Which row of a progress or reflection report a student's values come from, for the weekly
// import and the flag uploader alike (issue 41.12). A row with a bad value is skipped whole:
// none of its values counts (an hours cell reading "lots" does not let the row's text and rating
// through), and it never replaces a whole row of the same student, before it or after it. Of
// two whole rows the later counts, as a survey answered again does. The student is in the report
// whenever a row names them, so a row with a bad value gives no "No reflection submitted".

export interface RowChoice<T extends StudentKey> {
  /** The row whose values count; null when every row of the student's had a bad value. */
  used: T | null;
  /** The spreadsheet rows that name the student, whole or not, in file order. */
  rows: number[];
}

/** `choice` after one more row of the student's, in file order; `whole`: the row had no bad value. */
export function chooseRow<T extends StudentKey>(choice: RowChoice<T> | null, row: T | FlawedRow<T>, whole: boolean): RowChoice<T> {
  const next = choice ?? { used: null, rows: [] };
  next.rows.push(row.row);
  if (whole) next.used = row as T;
  return next;
}

/** What the flag rules read of a progress choice: null when the student is not in the report. */
export const progressFacts = (choice: RowChoice<ProgressRow> | null) =>
  choice === null ? null : { progress: choice.used?.progress ?? null, pastDue: choice.used?.pastDue ?? null };

/** What the flag rules read of a reflection choice: null when the student is not in the report. */
export const reflectionFacts = (choice: RowChoice<ReflectionRow> | null) =>
  choice === null ? null : { hours: choice.used?.hours ?? null, rating: choice.used?.rating ?? null };

/** The preview's word on a report that has more than one row for the student; undefined for one row or none. */
export function rowChoiceOf(file: string, choice: RowChoice<StudentKey> | null): ReportRowChoice | undefined {
  if (choice === null || choice.rows.length < 2) return undefined;
  return { file, row: choice.used?.row ?? null, rows: choice.rows };
}

/** "row 3 is used", or that none is. For the warning and the row errors. */
export function usedRowText(choice: RowChoice<StudentKey>): string {
  return choice.used === null ? "none is used (each has a bad value)" : `row ${choice.used.row} is used`;
}
