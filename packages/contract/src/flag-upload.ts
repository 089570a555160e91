import { z } from "zod";
import { dbIdSchema } from "./common.js";
import { reportRowChoiceSchema } from "./imports.js";
import { weeklyFlagSchema } from "./weekly-data.js";

// The flag uploader (issue 12, super_admin): POST /flag-upload/process-flags (multipart) and
// POST /flag-upload/confirm-flag-import (JSON).

/** The three multipart file fields, in the order the page shows them. */
export const FLAG_FILE_FIELDS = ["progressReport", "reflectionReport", "attendanceReport"] as const;
export type FlagFileField = (typeof FLAG_FILE_FIELDS)[number];
export const FLAG_FILE_LABELS: Record<FlagFileField, string> = {
  progressReport: "Progress report (learning platform)",
  reflectionReport: "Reflection report (learning platform)",
  attendanceReport: "Attendance report (CRM)",
};

/** The text fields of process-flags. */
export const processFlagsFieldsSchema = z
  .object({
    cohortId: dbIdSchema,
    currentWeek: z.coerce
      .number({ error: "Week number must be a number" })
      .int("Week number must be a whole number")
      .min(1, "Week number must be 1 or more")
      .max(104, "Week number must be at most 104"),
  })
  .strict();
export type ProcessFlagsFields = z.infer<typeof processFlagsFieldsSchema>;

export const FLAG_MATCHES = ["benefit_assignment_id", "email", "name"] as const;
export type FlagMatch = (typeof FLAG_MATCHES)[number];
export const FLAG_MATCH_LABELS: Record<FlagMatch, string> = {
  benefit_assignment_id: "Benefit Assignment ID",
  email: "E-mail",
  name: "Name",
};

/** One student of the CRM report matched to the cohort, with the flags the server calculated. */
export const flagVerificationRowSchema = z.object({
  studentId: z.number().int(),
  name: z.string(),
  benefit_assignment_id: z.string(),
  /** The flag texts in the order of the flag rules; empty = "No flags". */
  calculated_flags: z.array(z.string()),
  flags: z.array(weeklyFlagSchema),
  matchedBy: z.enum(FLAG_MATCHES),
  /** Only for a student with more than one row in the progress or reflection report: the row used. */
  rowsUsed: z.array(reportRowChoiceSchema).optional(),
});
export type FlagVerificationRow = z.infer<typeof flagVerificationRowSchema>;

/** A row no student of the cohort took: listed, never silently dropped. */
export const flagUnmatchedRowSchema = z.object({
  file: z.string(),
  row: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  /** "in the CRM report but not in this cohort", "in the progress report but not in the CRM report"… */
  reason: z.string(),
});
export type FlagUnmatchedRow = z.infer<typeof flagUnmatchedRowSchema>;

/** Row errors listed in one reply; more are counted in rowErrorCount (a whole file of bad rows is 50,000). */
export const FLAG_ROW_ERRORS_LISTED = 1_000;

/**
 * A bad value in one row of a report: that row's error, the other rows still count. The row is
 * skipped whole (issue 41.12); `outcome` says what follows for its student.
 */
export const flagRowErrorSchema = z.object({
  report: z.enum(FLAG_FILE_FIELDS),
  /** The uploaded file's name. */
  file: z.string(),
  /** As a spreadsheet shows the file: the header is row 1. */
  row: z.number().int(),
  /** The header as written in the file. */
  column: z.string(),
  value: z.string(),
  /** What is wrong with the value: "is not a number of hours from 0 to 168". */
  problem: z.string(),
  /** The student of the cohort the row is about, when known. */
  studentId: z.number().int().nullable(),
  /** That student's name, else the name the row gives; null when the row names nobody. */
  student: z.string().nullable(),
  /** What became of the row: "this row is skipped; row 5 of Maria Lopez is used", "this session of Sam Okafor is not counted". */
  outcome: z.string(),
});
export type FlagRowError = z.infer<typeof flagRowErrorSchema>;

const studentRefSchema = z.object({ id: z.number().int(), name: z.string() });

/**
 * A Benefit Assignment ID the CRM report gives a student (matched by e-mail or name) while
 * another student already holds it: the ID stays with its holder, the student is left without
 * one. A coordinator has to look at both.
 */
export const benefitIdConflictSchema = z.object({
  benefitAssignmentId: z.string(),
  /** The student of this cohort the CRM row was matched to. */
  student: studentRefSchema,
  /** The student who holds the ID. */
  heldBy: studentRefSchema,
});
export type BenefitIdConflict = z.infer<typeof benefitIdConflictSchema>;

export const processFlagsResponseSchema = z.object({
  status: z.enum(["success", "error"]),
  message: z.string(),
  /** One sentence per listed row error (the spec's field, shown as "File Validation Errors: …"). */
  validationErrors: z.array(z.string()),
  /** The same errors, one object each, in the same order: reports in the page's order, then rows. */
  rowErrors: z.array(flagRowErrorSchema),
  /** Every row error, listed or not (at most FLAG_ROW_ERRORS_LISTED are). */
  rowErrorCount: z.number().int(),
  /** The processed run the confirm step names; kept on the server for at least an hour. */
  runId: z.string().nullable(),
  data: z.array(flagVerificationRowSchema),
  unmatched: z.array(flagUnmatchedRowSchema),
  /** The IDs the import would not store, each with both students. */
  benefitIdConflicts: z.array(benefitIdConflictSchema),
});
export type ProcessFlagsResponse = z.infer<typeof processFlagsResponseSchema>;

/** A refusal of process-flags: the error body plus the spec's fields (validationErrors shown joined). */
export const processFlagsErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  status: z.literal("error"),
  message: z.string(),
  validationErrors: z.array(z.string()),
  data: z.array(flagVerificationRowSchema),
});
export type ProcessFlagsError = z.infer<typeof processFlagsErrorSchema>;

/** POST /flag-upload/confirm-flag-import: the rows the person kept, as the server sent them. */
export const confirmFlagImportRequestSchema = z
  .object({
    runId: z.string().min(1, "runId is required").max(100),
    cohortId: dbIdSchema,
    currentWeek: z.number().int().min(1).max(104),
    verificationData: z
      .array(
        z
          .object({
            studentId: z.number().int(),
            benefit_assignment_id: z.string().max(200),
            calculated_flags: z.array(z.string().max(500)).max(20),
          })
          .passthrough(),
      )
      .max(50_000),
  })
  .strict();
export type ConfirmFlagImportRequest = z.infer<typeof confirmFlagImportRequestSchema>;

export const confirmFlagImportResponseSchema = z.object({
  status: z.literal("success"),
  message: z.string(),
  batchId: z.number().int(),
  summary: z.object({
    studentsImported: z.number().int(),
    weeklyDataCreated: z.number().int(),
    weeklyDataUpdated: z.number().int(),
    unchanged: z.number().int(),
    benefitAssignmentIdsStored: z.number().int(),
    /** Students left without an ID because another student already holds the one in the CRM report. */
    benefitAssignmentIdsHeldElsewhere: z.number().int(),
  }),
  /** Those students, each with the ID and its holder (a warning, not part of the success). */
  benefitIdConflicts: z.array(benefitIdConflictSchema),
});
export type ConfirmFlagImportResponse = z.infer<typeof confirmFlagImportResponseSchema>;

/** Texts of the flag uploader (spec sections 5 and 8). */
export const FLAG_UPLOAD_MESSAGES = {
  accessDeniedTitle: "Access Denied",
  accessDenied: "You do not have permission to access this page. Only Super Admins can use the Flag Uploader tool.",
  invalidFileType: "Invalid file type. Please upload a CSV file.",
  allFilesRequired: "Please upload all three required files.",
  missingWeekOrCohort: "Missing week number or cohort selection.",
  validationPrefix: "File Validation Errors: ",
  uploadFailed: "An error occurred during upload/processing.",
  importFailed: "An error occurred during import.",
  nothingMatched: "Processing complete, but no student data found or matched...",
  imported: "Flags imported successfully!",
  selectCohort: "Please select a cohort to continue.",
  superAdminOnly: "Only a super admin can use the Flag Uploader",
} as const;

/** How long a processed run can be confirmed (the spec asks for at least an hour). */
export const FLAG_RUN_TTL_MINUTES = 120;
