/** A file as uploaded: its form field's label for messages, its name and its bytes. */
export interface ReportFile {
  /** The uploaded file name, used in every message ("progress.csv row 4, Progress: …"). */
  name: string;
  bytes: Uint8Array;
}

/** One bad value in one row; the other rows still go through. */
export interface RowError {
  file: string;
  /** The row as a spreadsheet shows the file (the header is row 1; a cell's line breaks start no row). */
  row: number;
  /** The column's header as written in the file. */
  column: string;
  value: string;
  /** What is wrong, without the location: "is not a date", "is not Mentor or Advisor". */
  problem: string;
}

/**
 * What every report row carries to find its student (report-formats.md, "Matching"). Rows are
 * built with these fields written out, not spread from the key: V8 gave each row made with
 * `{ ...key, … }` a hidden class of its own (50,000 meeting rows took 32 MB instead of 12.5 MB).
 */
export interface StudentKey {
  row: number;
  /** "First Last" as written (a "Last, First" cell is turned round); "" only on a CRM row, which has its Benefit Assignment ID. */
  fullName: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

export interface MeetingRow extends StudentKey {
  studentId: number | null;
  school: string | null;
  team: string | null;
  /** ISO yyyy-mm-dd. */
  date: string;
  meetingType: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  /** The report said `Excused`: status is absent, and the record keeps that it was excused. */
  excused: boolean;
  advisorNotes: string | null;
}

export interface ProgressRow extends StudentKey {
  team: string | null;
  /** 0–100. */
  progress: number;
  pastDue: number;
  withoutDueDates: number;
}

export interface ReflectionRow extends StudentKey {
  hours: number;
  /** 1–5. */
  rating: number;
  reflection: string | null;
  submitted: string | null;
}

export interface CrmRow extends StudentKey {
  benefitAssignmentId: string;
  status: "completed" | "absent" | "excused" | "enrolled";
  session: string | null;
  date: string | null;
}

/**
 * A row with a bad value, as far as it could be read: each value that was bad is null. The
 * student is still in the report and what the row does say counts; the weekly import leaves
 * out a flawed meeting row (an attendance record needs its date, type and status).
 */
export type FlawedRow<T extends StudentKey> = StudentKey & { [K in Exclude<keyof T, keyof StudentKey>]: T[K] | null };

export interface ParsedReport<T extends StudentKey> {
  file: string;
  /** The rows without a problem. */
  rows: T[];
  /** The rows with a problem that still name their student; their problems are in `errors`. */
  flawed: FlawedRow<T>[];
  errors: RowError[];
}
