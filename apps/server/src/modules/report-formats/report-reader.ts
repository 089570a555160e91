import { setImmediate as nextTurn } from "node:timers/promises";
import { hasNameControlCharacter, IMPORT_LIMITS, NAME_CONTROL_CHARACTER_PROBLEM } from "@tally/contract";
import { type DateOrder, dateOrderOf } from "../../lib/csv/cell-values.js";
import { decodeText } from "../../lib/csv/decode-text.js";
import { ColumnFinder } from "../../lib/csv/header-names.js";
import { type TableRecord, readTable } from "../../lib/csv/read-table.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";
import { normaliseEmail, turnLastFirst } from "./student-names.js";
import type { FlawedRow, ParsedReport, ReportFile, RowError, StudentKey } from "./report-types.js";

// What the four report readers share: opening a file, the name and e-mail columns every
// report has, and collecting a row's problems so that a bad row is set apart with its errors.

/** Aliases for one full-name column, in every report (report-formats.md). */
export const FULL_NAME_ALIASES = ["Student Name", "Name", "Full Name"] as const;
export const EMAIL_ALIASES = ["Email", "E-mail", "Email Address", "Student Email"] as const;

/** Rows handled between two yields to the event loop. */
const ROWS_PER_TURN = 1_000;

export interface OpenReport {
  records: TableRecord[];
  columns: ColumnFinder;
}

/** Decodes and parses a report file; refusals name the file. */
export async function openReport(file: ReportFile): Promise<OpenReport> {
  // The upload limit should stop such a file first; this keeps the readers safe on their own.
  if (file.bytes.length > IMPORT_LIMITS.maxFileBytes) {
    throw new ReportRejected(`${file.name} is larger than ${IMPORT_LIMITS.maxFileBytes / (1024 * 1024)} MB; split it into smaller files`, 413);
  }
  const table = await readTable(await decodeText(file.bytes, file.name), file.name);
  return { records: table.records, columns: new ColumnFinder(table.headers, file.name) };
}

export type NameColumns = { first: number; last: number } | { full: number };

/**
 * First Name + Last Name, or one full-name column (the report's own header first, e.g.
 * "Enrollee Name", then the common aliases).
 */
export function findNameColumns(columns: ColumnFinder, ownNames: readonly string[], label: string): NameColumns {
  const first = columns.find({ label: "First Name", aliases: ["First Name", "Given Name", "Firstname"] });
  const last = columns.find({ label: "Last Name", aliases: ["Last Name", "Surname", "Family Name", "Lastname"] });
  if (first !== null && last !== null) return { first, last };
  const full = columns.find({ label, aliases: [...ownNames, ...FULL_NAME_ALIASES] });
  if (full === null) {
    throw new ReportRejected(`${columns.file}: required column "${label}" is missing (or "First Name" and "Last Name")`);
  }
  return { full };
}

/** One record being read: its trimmed cells and the problems found so far. */
export class RowReading {
  readonly problems: RowError[] = [];

  constructor(
    readonly record: TableRecord,
    private readonly columns: ColumnFinder,
  ) {}

  get row(): number {
    return this.record.row;
  }

  /** The trimmed cell of a column; "" when the report has no such column. */
  cell(index: number | null): string {
    return index === null ? "" : (this.record.cells[index] ?? "").trim();
  }

  /** The trimmed cell, or null when it is empty or the column is absent. */
  optional(index: number | null): string | null {
    const value = this.cell(index);
    return value === "" ? null : value;
  }

  fail(index: number, problem: string): void {
    this.problems.push({
      file: this.columns.file,
      row: this.record.row,
      column: this.columns.header(index),
      value: this.record.cells[index] ?? "",
      problem,
    });
  }

  /** Reads a required cell with `parse`; an empty or unreadable cell is a problem. */
  required<T>(index: number, parse: (raw: string) => T | null, problem: string): T | null {
    const raw = this.cell(index);
    if (raw === "") {
      this.fail(index, "is empty");
      return null;
    }
    const value = parse(raw);
    if (value === null) this.fail(index, problem);
    return value;
  }

  /**
   * Name and e-mail of the row's student; null (with a problem) when the row names nobody, unless
   * `identifiedOtherwise` (a CRM row's Benefit Assignment ID): then an empty name is "". Null
   * (with a problem) too when the name holds a control character: such a row is not used.
   */
  studentKey(names: NameColumns, email: number | null, identifiedOtherwise = false): StudentKey | null {
    // A line break or another control character in a name is refused, not folded into a space:
    // the row is an error and skipped (issue 41.9).
    for (const index of "full" in names ? [names.full] : [names.first, names.last]) {
      if (hasNameControlCharacter(this.cell(index))) {
        this.fail(index, NAME_CONTROL_CHARACTER_PROBLEM);
        return null;
      }
    }
    let firstName: string;
    let lastName: string;
    if ("full" in names) {
      const full = turnLastFirst(this.cell(names.full));
      const space = full.indexOf(" ");
      firstName = space < 0 ? full : full.slice(0, space);
      lastName = space < 0 ? "" : full.slice(space + 1);
    } else {
      firstName = this.cell(names.first).replace(/\s+/g, " ");
      lastName = this.cell(names.last).replace(/\s+/g, " ");
    }
    const fullName = [firstName, lastName].filter(Boolean).join(" ");
    if (fullName === "" && !identifiedOtherwise) {
      this.fail("full" in names ? names.full : names.first, "has no student name");
      return null;
    }
    return { row: this.row, fullName, firstName, lastName, email: normaliseEmail(this.cell(email)) };
  }
}

/**
 * Reads every record with `read` (which gives null for a value it could not read, and null for
 * a row that names no student): rows without problems, the flawed rows that still name their
 * student, and every problem. Yields to the event loop between batches.
 */
export async function readRows<T extends StudentKey>(
  open: OpenReport,
  read: (reading: RowReading) => FlawedRow<T> | null,
): Promise<Omit<ParsedReport<T>, "file">> {
  const rows: T[] = [];
  const flawed: FlawedRow<T>[] = [];
  const errors: RowError[] = [];
  for (let i = 0; i < open.records.length; i++) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    const reading = new RowReading(open.records[i]!, open.columns);
    const row = read(reading);
    if (reading.problems.length > 0) {
      errors.push(...reading.problems);
      if (row !== null) flawed.push(row);
    } else if (row !== null) {
      // A required value a reader could not read is always a problem: a row without one is whole.
      rows.push(row as unknown as T);
    }
  }
  return { rows, flawed, errors };
}

/** A report's whole and flawed rows together, in the file's order (each list already is). */
export function rowsInFileOrder<T extends StudentKey>({ rows, flawed }: Pick<ParsedReport<T>, "rows" | "flawed">): Array<T | FlawedRow<T>> {
  if (flawed.length === 0) return rows;
  const merged: Array<T | FlawedRow<T>> = [];
  let i = 0;
  let j = 0;
  while (i < rows.length || j < flawed.length) {
    const takeRow = j === flawed.length || (i < rows.length && rows[i]!.row < flawed[j]!.row);
    merged.push(takeRow ? rows[i++]! : flawed[j++]!);
  }
  return merged;
}

/** The day/month order of the file's numeric dates in these columns (US month/day unless decided). */
export async function fileDateOrder(open: OpenReport, indexes: readonly (number | null)[]): Promise<DateOrder> {
  const columns = indexes.filter((i) => i !== null);
  for (let i = 0; i < open.records.length; i++) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    for (const index of columns) {
      const order = dateOrderOf(open.records[i]!.cells[index] ?? "");
      if (order) return order;
    }
  }
  return "month-day";
}
