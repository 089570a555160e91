import { randomUUID } from "node:crypto";
import {
  type ConfirmFlagImportRequest,
  type ConfirmFlagImportResponse,
  cohortWeekCount,
  FLAG_ROW_ERRORS_LISTED,
  FLAG_RUN_TTL_MINUTES,
  FLAG_UPLOAD_MESSAGES,
  type FlagFileField,
  type ProcessFlagsFields,
  type ProcessFlagsResponse,
  weekFirstDay,
} from "@tally/contract";
import { evaluateAlertsAndAnnounce } from "../alerts/alerts-live.service.js";
import { recordCrmEnrolled } from "../alerts/crm-enrolled.service.js";
import type { ServerContext } from "../../context.js";
import type { FlagRunRow } from "../../db/schema.js";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors.js";
import type { UploadedReport } from "../../lib/report-upload.js";
import { recordChange } from "../audit/audit.service.js";
import * as cohorts from "../cohorts/cohorts-import.service.js";
import { FLAG_UPLOADER_CODES, mergeFlags } from "../report-formats/flag-rules.js";
import { emptyBatchChanges } from "../imports/batch-changes.js";
import { lockImports, recordBatch } from "../imports/import-batches.service.js";
import { readCrmReport } from "../report-formats/crm-report.js";
import { readProgressReport } from "../report-formats/progress-report.js";
import { readReflectionReport } from "../report-formats/reflection-report.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";
import type { ParsedReport, StudentKey } from "../report-formats/report-types.js";
import * as students from "../students/students-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import { findBenefitIdConflicts } from "./benefit-id-conflicts.js";
import { calculateFlagRun } from "./flag-matching.js";
import { type FlagReports, rowErrorSentence } from "./flag-row-errors.js";
import * as repo from "./flags.repository.js";

/** A refusal that carries the spec's validationErrors (shown as "File Validation Errors: …"). */
export class FlagValidationError extends AppError {
  constructor(readonly validationErrors: string[]) {
    super(400, "VALIDATION_ERROR", `${FLAG_UPLOAD_MESSAGES.validationPrefix}${validationErrors.join("; ")}`);
  }
}

/** The three reports; a file that cannot be read at all refuses the upload, a bad row does not. */
async function readFlagReports(files: Record<FlagFileField, UploadedReport>): Promise<FlagReports> {
  const rejected: string[] = [];
  const read = async <T extends StudentKey>(reader: (f: UploadedReport) => Promise<ParsedReport<T>>, file: UploadedReport) => {
    try {
      return await reader(file);
    } catch (error) {
      if (!(error instanceof ReportRejected)) throw error;
      if (error.statusCode === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", error.message);
      rejected.push(error.message);
      return undefined;
    }
  };
  const progress = await read(readProgressReport, files.progressReport);
  const reflection = await read(readReflectionReport, files.reflectionReport);
  const crm = await read(readCrmReport, files.attendanceReport);
  if (!progress || !reflection || !crm) throw new FlagValidationError(rejected);
  return { crm, progress, reflection };
}

async function findCohortWeek(ctx: ServerContext, cohortId: number, week: number) {
  const cohort = await cohorts.findCohort(ctx.database.db, cohortId);
  if (!cohort) throw notFound("Cohort not found");
  const weekCount = cohortWeekCount(cohort.start_date, cohort.end_date);
  if (week > weekCount) throw badRequest(`Week ${week} is outside cohort "${cohort.name}": it has ${weekCount} week${weekCount === 1 ? "" : "s"}.`);
  return { cohort, weekCount };
}

/**
 * Reads the three reports, matches the CRM's enrollees to the cohort and calculates each one's
 * flags. Writes no student's week: the run is kept (any instance can confirm it) and its id
 * returned with the rows to verify.
 */
export async function processFlags(
  ctx: ServerContext,
  actorId: number,
  upload: { fields: ProcessFlagsFields; files: Record<FlagFileField, UploadedReport> },
): Promise<ProcessFlagsResponse> {
  const { cohortId, currentWeek } = upload.fields;
  const { cohort, weekCount } = await findCohortWeek(ctx, cohortId, currentWeek);
  const reports = await readFlagReports(upload.files);
  const cohortStudents = await repo.listCohortStudents(ctx.database.db, cohortId);
  const { rows, unmatched, rowErrors, rowErrorCount, rowsUsed } = await calculateFlagRun(
    cohortStudents,
    { week: currentWeek, weekCount, totalExpectedHours: cohort.total_expected_hours },
    reports,
  );
  const at = ctx.clock.now();
  const runId = randomUUID();
  await repo.insertRun(ctx.database.db, {
    id: runId,
    userId: actorId,
    cohortId,
    week: currentWeek,
    files: (Object.entries(upload.files) as Array<[string, UploadedReport]>).map(([field, f]) => ({ field, name: f.name, size: f.size, sha256: f.sha256 })),
    rows,
    at,
    expiresAt: new Date(at.getTime() + FLAG_RUN_TTL_MINUTES * 60_000),
  });
  return {
    status: "success",
    message: processedMessage(rows.length, rowErrorCount),
    validationErrors: rowErrors.map(rowErrorSentence),
    rowErrors,
    rowErrorCount,
    runId,
    // The CRM count stays with the run, for the alert rules; the page shows the flags (and the row used, when a report had several).
    data: rows.map(({ crmEnrolled: _crm, ...r }) => {
      const used = rowsUsed.get(r.studentId);
      return { ...r, calculated_flags: r.flags.map((f) => f.text), ...(used ? { rowsUsed: used } : {}) };
    }),
    unmatched,
    benefitIdConflicts: await findBenefitIdConflicts(ctx.database.db, rows),
  };
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

function processedMessage(studentCount: number, rowErrors: number): string {
  if (studentCount === 0) return FLAG_UPLOAD_MESSAGES.nothingMatched;
  if (rowErrors === 0) return `Processed ${plural(studentCount, "student")}.`;
  const unlisted = rowErrors > FLAG_ROW_ERRORS_LISTED ? ` (the first ${FLAG_ROW_ERRORS_LISTED.toLocaleString("en-US")} are listed)` : "";
  return `Processed ${plural(studentCount, "student")}, with ${plural(rowErrors, "row error")}${unlisted}.`;
}

const sameTexts = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** The run's own rows for the rows the client kept; anything it did not calculate is refused. */
function keptRows(run: repo.StoredRun, request: ConfirmFlagImportRequest): FlagRunRow[] {
  const byStudent = new Map(run.rows.map((r) => [r.studentId, r]));
  const seen = new Set<number>();
  return request.verificationData.map((sent, i) => {
    const own = byStudent.get(sent.studentId);
    const where = `Row ${i + 1} (student ${sent.studentId})`;
    if (!own) throw badRequest(`${where} is not in this processed run. Process the files again.`);
    if (seen.has(sent.studentId)) throw badRequest(`${where} is sent twice.`);
    seen.add(sent.studentId);
    if (own.benefit_assignment_id !== sent.benefit_assignment_id) throw badRequest(`${where}: the Benefit Assignment ID differs from the processed run.`);
    if (!sameTexts(own.flags.map((f) => f.text), sent.calculated_flags)) throw badRequest(`${where}: the flags differ from the ones calculated. Flags are never taken from the page.`);
    return own;
  });
}

/**
 * Imports the run's calculated flags for the rows the person kept, in one transaction: each
 * student's week gets the uploader's codes replaced (the weekly import's MISSED_MEETING stays),
 * each first-matched student keeps the Benefit Assignment ID, and the batch can be undone.
 */
export async function confirmFlagImport(ctx: ServerContext, actorId: number, request: ConfirmFlagImportRequest): Promise<ConfirmFlagImportResponse> {
  const { db } = ctx.database;
  const at = ctx.clock.now();
  const run = await repo.findLiveRun(db, request.runId, at);
  if (!run) throw notFound("This processed run has expired or does not exist. Process the files again.");
  if (run.cohort_id !== request.cohortId || run.week_number !== request.currentWeek) {
    throw conflict("The cohort or week differs from the processed run. Process the files again.");
  }
  const rows = keptRows(run, request);
  const { cohort } = await findCohortWeek(ctx, run.cohort_id, run.week_number);
  const weekStart = weekFirstDay(cohort.start_date, run.week_number);
  const atText = at.toISOString();

  const reply = await db.transaction().execute(async (trx) => {
    await lockImports(trx);
    const existing = new Map((await weekly.findWeekRows(trx, run.cohort_id, run.week_number, rows.map((r) => r.studentId))).map((w) => [w.student_id, w]));
    const created: weekly.NewWeeklyRow[] = [];
    const updates: Array<weekly.WeeklyValues & { id: number; updated_at: string }> = [];
    const previous: Array<weekly.StoredWeeklyRow> = [];
    for (const row of rows) {
      const before = existing.get(row.studentId);
      const flags = mergeFlags(before?.flags ?? [], row.flags, FLAG_UPLOADER_CODES);
      if (!before) {
        created.push({ student_id: row.studentId, cohort_id: run.cohort_id, week_number: run.week_number, week_start: weekStart, flags, reflection: null, advisor_notes: null, hours_reported: null });
      } else if (!sameTexts(before.flags.map((f) => `${f.code}:${f.text}`), flags.map((f) => `${f.code}:${f.text}`))) {
        previous.push(before);
        updates.push({ ...before, flags, updated_at: atText });
      }
    }
    const weeklyCreated = await weekly.insertWeeklyRows(trx, created, at);
    await weekly.setWeeklyValues(trx, updates);
    // A Benefit Assignment ID changes no student's school: the rollups have nothing to redo.
    await students.deferRollups(trx);
    const storedFor = await students.storeBenefitIds(trx, rows.map((r) => [r.studentId, r.benefit_assignment_id]));
    const storedIds = new Map(rows.map((r) => [r.studentId, r.benefit_assignment_id]));
    await students.refreshRollups(trx, []);
    const benefitIdConflicts = await findBenefitIdConflicts(trx, rows);
    const summary = {
      studentsImported: rows.length,
      weeklyDataCreated: created.length,
      weeklyDataUpdated: updates.length,
      unchanged: rows.length - created.length - updates.length,
      benefitAssignmentIdsStored: storedFor.length,
      benefitAssignmentIdsHeldElsewhere: await repo.countWithoutBenefitId(trx, rows.map((r) => r.studentId)),
    };
    const batchId = await recordBatch(trx, {
      kind: "flags",
      userId: actorId,
      cohortId: run.cohort_id,
      weekNumber: run.week_number,
      files: run.files,
      summary: {
        totalStudentsInFiles: rows.length,
        newStudentsCreatedCount: 0,
        attendanceRecordsCreated: 0,
        attendanceRecordsUpdated: 0,
        weeklyDataCreated: created.length,
        weeklyDataUpdated: updates.length,
        studentsProcessedForWeeklyData: rows.length,
      },
      createdCohort: false,
      changes: {
        ...emptyBatchChanges(),
        weeklyCreated,
        weeklyUpdated: previous.map(({ student_id: _s, ...w }) => w),
        // With the ID stored, so an undo leaves an ID corrected by hand since then alone.
        benefitIds: storedFor.map((id) => [id, null, storedIds.get(id) ?? ""]),
      },
      at,
    });
    // The missing-from-reports rule's CRM part. A run processed before migration 028 has no count: unknown, no row.
    const enrolled = rows.filter((r) => r.crmEnrolled !== undefined).map((r) => [r.studentId, r.crmEnrolled ?? 0] as const);
    await recordCrmEnrolled(trx, { batchId, cohortId: run.cohort_id, week: run.week_number, reportedAt: run.created_at }, enrolled);
    await recordChange(trx, {
      actorId,
      action: "flags.imported",
      entity: "import_batch",
      entityId: String(batchId),
      before: null,
      after: { runId: run.id, cohortId: run.cohort_id, week: run.week_number, summary },
      at,
    });
    return { status: "success" as const, message: FLAG_UPLOAD_MESSAGES.imported, batchId, summary, benefitIdConflicts };
  });
  await evaluateAlertsAndAnnounce(ctx, { cohortIds: [run.cohort_id], batchId: reply.batchId });
  return reply;
}
