import { z } from "zod";
import { PROGRAM_TYPES } from "./cohorts.js";
import { dbIdSchema, errorBodySchema } from "./common.js";
import { weeklyFlagSchema } from "./weekly-data.js";

// The weekly import (issue 11): POST /flag-upload/preview-weekly-data and
// /flag-upload/commit-weekly-data (multipart), GET /imports, POST /imports/:id/undo.

/** Limits per uploaded file (report-formats.md, "Parsing rules"). */
export const IMPORT_LIMITS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxDataRows: 50_000,
} as const;

/** The three multipart file fields, in the order the form shows them. */
export const IMPORT_FILE_FIELDS = ["attendanceReport", "progressReport", "reflectionReport"] as const;
export type ImportFileField = (typeof IMPORT_FILE_FIELDS)[number];
export const IMPORT_FILE_LABELS: Record<ImportFileField, string> = {
  attendanceReport: "Meeting attendance report",
  progressReport: "Progress report",
  reflectionReport: "Reflection report",
};

const wholeNumber = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be 1 or more`)
    .max(104, `${label} must be at most 104`);

/**
 * The form fields of the multipart body, as strings. Either `cohortId`, or the five fields of
 * a new cohort (the cohort is created by the commit, in the same transaction).
 */
export const importFormFieldsSchema = z
  .object({
    cohortId: dbIdSchema.optional(),
    cohortName: z.string().trim().max(100, "Cohort name must be at most 100 characters").optional(),
    programType: z.enum(PROGRAM_TYPES, { error: `Program type must be one of: ${PROGRAM_TYPES.join(", ")}` }).optional(),
    startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Start date must be a date as YYYY-MM-DD").optional(),
    endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "End date must be a date as YYYY-MM-DD").optional(),
    totalExpectedHours: z.coerce
      .number({ error: "Total expected hours must be a number" })
      .min(0, "Total expected hours must be 0 or more")
      .max(10_000, "Total expected hours must be at most 10000")
      .optional(),
    weekNumber: wholeNumber("Week number"),
  })
  .strict();
export type ImportFormFields = z.infer<typeof importFormFieldsSchema>;

export const IMPORT_ACTIONS = ["created", "updated", "none"] as const;
export const importActionSchema = z.enum(IMPORT_ACTIONS);
export type ImportAction = z.infer<typeof importActionSchema>;

export const importSummarySchema = z.object({
  totalStudentsInFiles: z.number().int(),
  newStudentsCreatedCount: z.number().int(),
  attendanceRecordsCreated: z.number().int(),
  attendanceRecordsUpdated: z.number().int(),
  weeklyDataCreated: z.number().int(),
  weeklyDataUpdated: z.number().int(),
  studentsProcessedForWeeklyData: z.number().int(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/**
 * A report with more than one row for one student and week (issue 41.12): which row's values
 * were used. A row with a bad value is never used; of two whole rows, the later is.
 */
export const reportRowChoiceSchema = z.object({
  /** The uploaded file's name. */
  file: z.string(),
  /** The row used, as a spreadsheet numbers the file (the header is row 1); null when every row had a bad value. */
  row: z.number().int().nullable(),
  /** Every row of the file for the student, in file order. */
  rows: z.array(z.number().int()),
});
export type ReportRowChoice = z.infer<typeof reportRowChoiceSchema>;

export const importStudentDetailSchema = z.object({
  studentFullName: z.string(),
  /** null for a student the commit would create. */
  studentId: z.number().int().nullable(),
  isNewStudent: z.boolean(),
  /** The student's school (a new student's, from the meeting report). */
  schoolName: z.string().nullable(),
  /** The student's team in the cohort after the import; null without one. */
  teamName: z.string().nullable(),
  weeklyData: z.object({
    action: importActionSchema,
    flags: z.array(weeklyFlagSchema),
    total_hours_reported: z.number().nullable(),
    reflection: z.string().nullable(),
  }),
  attendance: z.array(
    z.object({
      date: z.string(),
      status: z.enum(["present", "late", "absent"]),
      /** The report said Excused: absent in every count, kept as excused. */
      excused: z.boolean(),
      meetingType: z.enum(["mentor", "advisor"]),
      action: importActionSchema,
    }),
  ),
  /** Only for a student with more than one row in the progress or reflection report. */
  rowsUsed: z.array(reportRowChoiceSchema).optional(),
});
export type ImportStudentDetail = z.infer<typeof importStudentDetailSchema>;

/** A row that could not be used; the other rows still go through. */
export const importRowErrorSchema = z.object({
  studentId: z.number().int().nullable(),
  /** The student the row names ("First Last"); null when the row names nobody. */
  studentName: z.string().nullable(),
  /** parse · ambiguous_student · unknown_school · unmatched */
  type: z.string(),
  /** The whole text to show: file and row, the student, column and value, and what happens to the row. */
  error: z.string(),
  file: z.string(),
  row: z.number().int(),
  column: z.string(),
  value: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importWarningSchema = z.object({
  /** date_outside_week · not_in_meeting_report · duplicate_row */
  type: z.string(),
  message: z.string(),
  file: z.string().optional(),
  row: z.number().int().optional(),
  studentId: z.number().int().nullable().optional(),
});
export type ImportWarning = z.infer<typeof importWarningSchema>;

/** A week of a cohort with its dates (YYYY-MM-DD, first and last day). */
export const importWeekSchema = z.object({ number: z.number().int(), start: z.string(), end: z.string() });
export type ImportWeek = z.infer<typeof importWeekSchema>;

/** Most meeting dates of the file fall outside the chosen week (issue 29): said once, with the week they do fall in. */
export const importWeekMismatchSchema = z.object({
  /** Meeting rows of the file with a date. */
  dateCount: z.number().int(),
  /** Of those, the rows outside the chosen week. */
  outsideCount: z.number().int(),
  /** The cohort week most of the dates fall in, and how many do; null when that is no week of the cohort. */
  suggested: importWeekSchema.extend({ dateCount: z.number().int() }).nullable(),
});
export type ImportWeekMismatch = z.infer<typeof importWeekMismatchSchema>;

/** The files would change nothing: what the database has already came from them (or the same data). */
export const importUnchangedSchema = z.object({
  cohortName: z.string(),
  weekNumber: z.number().int(),
  /** The newest import of this week still in force; null when none is (the rows came otherwise). */
  lastImport: z.object({ at: z.string(), by: z.string().nullable() }).nullable(),
});
export type ImportUnchanged = z.infer<typeof importUnchangedSchema>;

export const importPreviewSchema = z.object({
  summary: importSummarySchema,
  processedStudentDetails: z.array(importStudentDetailSchema),
  errorsEncountered: z.array(importRowErrorSchema),
  warnings: z.array(importWarningSchema),
  /** The chosen week and its dates. */
  week: importWeekSchema,
  weekMismatch: importWeekMismatchSchema.nullable(),
  /** Set when committing would change nothing (the commit is then refused, no batch recorded). */
  unchanged: importUnchangedSchema.nullable(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Reply of the commit: the same shape, plus the batch that Undo takes back and the cohort. */
export const importCommitSchema = importPreviewSchema.extend({
  batchId: z.number().int(),
  cohortId: z.number().int(),
});
export type ImportCommit = z.infer<typeof importCommitSchema>;

/**
 * Progress, when the request asks for `Accept: application/x-ndjson`: one JSON object per
 * line — stages, then one result or one error. Refusals before the files are read (401, 413,
 * a bad form) are ordinary JSON error replies with their status.
 */
export const IMPORT_STAGES = ["reading", "matching", "writing"] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];
export const IMPORT_STAGE_LABELS: Record<ImportStage, string> = {
  reading: "Reading files…",
  matching: "Matching students…",
  writing: "Writing…",
};
export const IMPORT_PROGRESS_TYPE = "application/x-ndjson";
export type ImportProgressLine<T> =
  | { type: "stage"; stage: ImportStage }
  | { type: "result"; data: T }
  | { type: "error"; statusCode: number; code: string; error: string };

export const importFileInfoSchema = z.object({
  field: z.enum(IMPORT_FILE_FIELDS),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
});
export type ImportFileInfo = z.infer<typeof importFileInfoSchema>;

export const importBatchSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  userName: z.string().nullable(),
  cohortId: z.number().int(),
  cohortName: z.string().nullable(),
  weekNumber: z.number().int(),
  files: z.array(importFileInfoSchema),
  summary: importSummarySchema,
  /** Whether the commit created the cohort (Undo then removes it too). */
  createdCohort: z.boolean(),
  undoneAt: z.string().nullable(),
  /** Only the newest batch of a cohort that is not undone can be undone. */
  canUndo: z.boolean(),
  /** A weekly import, or the flag uploader's import of calculated flags. */
  kind: z.enum(["weekly", "flags"]),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;

export const importsQuerySchema = z.object({
  cohortId: dbIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type ImportsQuery = z.infer<typeof importsQuerySchema>;
export const importsResponseSchema = z.object({ data: z.array(importBatchSchema) });
export type ImportsResponse = z.infer<typeof importsResponseSchema>;

/** Body of POST /imports/:id/undo (optional). */
export const importUndoRequestSchema = z
  .object({
    /**
     * Undo even though students of the import were edited since it, keeping those students as
     * they are now (their record and the cohort and team places the import gave them); the
     * rest of the import is undone. Without it such an undo answers 409 STUDENTS_EDITED.
     */
    keepEditedStudents: z.boolean({ error: "keepEditedStudents must be true or false" }).default(false),
  })
  .strict();
export type ImportUndoRequest = z.input<typeof importUndoRequestSchema>;

/** The student fields an edit records (PUT /students/:id; attendance: PUT /attendance/:id), with their labels. */
export const STUDENT_EDIT_FIELD_LABELS: Record<string, string> = {
  first_name: "first name",
  last_name: "last name",
  email: "e-mail",
  school_id: "school",
  team_id: "team",
  attendance: "attendance",
};

/** At most this many edited students are listed in a 409 STUDENTS_EDITED (editedStudentsCount has them all). */
export const EDITED_STUDENTS_LISTED = 50;

export const editedStudentSchema = z.object({
  id: z.number().int(),
  /** The student's name as it is now. */
  name: z.string(),
  /** Each edit since the import, oldest first: when, by whom (null: an account deleted since), which fields. */
  changes: z.array(z.object({ at: z.string(), by: z.string().nullable(), fields: z.array(z.string()) })),
});
export type EditedStudent = z.infer<typeof editedStudentSchema>;

/** A 409 of POST /imports/:id/undo: already undone, not the newest, or (STUDENTS_EDITED) students edited since. */
export const importUndoConflictSchema = errorBodySchema.extend({
  editedStudents: z.array(editedStudentSchema).optional(),
  editedStudentsCount: z.number().int().optional(),
});
export type ImportUndoConflict = z.infer<typeof importUndoConflictSchema>;

/** Reply of POST /imports/:id/undo: what was taken back. */
export const importUndoResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    batchId: z.number().int(),
    attendanceRecordsRemoved: z.number().int(),
    attendanceRecordsRestored: z.number().int(),
    weeklyDataRemoved: z.number().int(),
    weeklyDataRestored: z.number().int(),
    studentsRemoved: z.number().int(),
    /** Students edited since the import and kept (keepEditedStudents). */
    studentsKept: z.number().int(),
    cohortRemoved: z.boolean(),
  }),
});
export type ImportUndoResponse = z.infer<typeof importUndoResponseSchema>;


const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const dayOf = (iso: string) => ({ day: Number(iso.slice(8, 10)), month: MONTHS[Number(iso.slice(5, 7)) - 1] ?? "", year: iso.slice(0, 4) });

/** A week's dates as a coordinator reads them: "16–22 Nov", "30 Nov – 6 Dec", "29 Dec – 4 Jan 2027". */
export function weekRangeText(start: string, end: string): string {
  const a = dayOf(start);
  const b = dayOf(end);
  if (a.year !== b.year) return `${a.day} ${a.month} – ${b.day} ${b.month} ${b.year}`;
  return a.month === b.month ? `${a.day}–${b.day} ${b.month}` : `${a.day} ${a.month} – ${b.day} ${b.month}`;
}

/** "Week 4 · 16–22 Nov". */
export const weekLabel = (week: ImportWeek): string => `Week ${week.number} · ${weekRangeText(week.start, week.end)}`;

/** A day in words, the same on every machine (UTC): "20 Nov 2026". */
export function dayText(isoDateOrTime: string): string {
  const d = dayOf(isoDateOrTime.slice(0, 10));
  return `${d.day} ${d.month} ${d.year}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Texts of the import screens (spec section 8). */
export const IMPORT_MESSAGES = {
  /** The one message when most meeting dates fall outside the chosen week. */
  weekMismatch: (chosen: ImportWeek, m: ImportWeekMismatch): string => {
    if (!m.suggested) {
      return `${m.outsideCount} of ${m.dateCount} meeting dates fall outside week ${chosen.number} (${weekRangeText(chosen.start, chosen.end)}) and in no single week of this cohort. Check the week and the file.`;
    }
    const count = m.suggested.dateCount === m.dateCount ? `All ${m.dateCount}` : `${m.suggested.dateCount} of ${m.dateCount}`;
    return `${count} meeting dates fall in week ${m.suggested.number} (${weekRangeText(m.suggested.start, m.suggested.end)}), not week ${chosen.number} (${weekRangeText(chosen.start, chosen.end)}). Import as week ${m.suggested.number}?`;
  },
  /** The files change nothing: said by the preview, and by the commit's refusal. */
  unchanged: (u: ImportUnchanged): string =>
    u.lastImport
      ? `Week ${u.weekNumber} of ${u.cohortName} was imported on ${dayText(u.lastImport.at)}${u.lastImport.by ? ` by ${u.lastImport.by}` : ""}; these files change nothing.`
      : `Week ${u.weekNumber} of ${u.cohortName} already holds what these files say; they change nothing.`,
  /** The undo's reply, in words. */
  undone: (batch: { weekNumber: number; cohortName: string }, r: ImportUndoResponse["data"]): string => {
    const removed = [
      r.attendanceRecordsRemoved > 0 ? plural(r.attendanceRecordsRemoved, "attendance record") : null,
      r.weeklyDataRemoved > 0 ? plural(r.weeklyDataRemoved, "weekly record") : null,
      r.studentsRemoved > 0 ? plural(r.studentsRemoved, "student") : null,
      r.cohortRemoved ? "the cohort" : null,
    ].filter((x): x is string => x !== null);
    const restored = r.attendanceRecordsRestored + r.weeklyDataRestored;
    const parts = [
      removed.length > 0 ? `removed ${listText(removed)}` : "removed nothing",
      restored > 0 ? `restored the previous values of ${plural(restored, "record")}` : null,
      r.studentsKept > 0 ? `kept ${plural(r.studentsKept, "edited student")}` : null,
    ].filter((x): x is string => x !== null);
    return `Undid the week ${batch.weekNumber} import of ${batch.cohortName}: ${listText(parts)}.`;
  },
  previewFailed: (message: string) => `Preview generation failed: ${message}`,
  commitFailed: (message: string) => `Commit failed: ${message}`,
  noData: "Error: No data to commit.",
  onlyNewestUndo: "Only the newest import of a cohort can be undone. Undo the newer imports of this cohort first.",
  alreadyUndone: "This import has already been undone.",
  studentsEditedSince: (count: number) =>
    count === 1
      ? "1 student of this import was edited after it: undo the import keeping that student as it is now, or cancel."
      : `${count} students of this import were edited after it: undo the import keeping those students as they are now, or cancel.`,
} as const;
