import type { ImportCommit, ImportFileField, ImportFormFields, ImportPreview, ImportStage, ImportUnchanged } from "@tally/contract";
import { cohortWeekCount, IMPORT_MESSAGES, programmeYearOf } from "@tally/contract";
import { evaluateAlertsAndAnnounce } from "../alerts/alerts-live.service.js";
import type { ServerContext } from "../../context.js";
import type { Transaction } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { Database } from "../../db/schema.js";
import { badRequest, conflict, notFound } from "../../lib/errors.js";
import { inChunks } from "../../lib/in-chunks.js";
import { JsonText } from "../../lib/json-stream.js";
import * as attendance from "../attendance/attendance-import.service.js";
import { recordChange } from "../audit/audit.service.js";
import * as cohorts from "../cohorts/cohorts-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import { ImportWorkerClient } from "./import-worker-client.js";
import type { PlanSummary, ReadSummary } from "./import-worker-steps.js";
import type { KnownStudent } from "./roster-matching.js";
import { decodeSlices, writePlan } from "./import-writer.js";
import { PreviewCache } from "./preview-cache.js";
import * as repo from "./imports.repository.js";
import { refreshPlannerStatistics } from "./planner-statistics.js";
import type { UploadedReport } from "../../lib/report-upload.js";
import { startDigestsAfterImport } from "../digests/digest-scheduler.js";

export interface ImportUpload {
  fields: ImportFormFields;
  files: Record<ImportFileField, UploadedReport>;
}
export type StageListener = (stage: ImportStage) => void;

interface ImportCohort {
  id: number | null;
  name: string;
  programType: string;
  startDate: string;
  endDate: string;
  totalExpectedHours: number | null;
}

/**
 * A plan and the preview reply made with it, both as JSON bytes made in the import's worker
 * (which has ended): what a preview keeps for its commit.
 */
interface Prepared {
  cohort: ImportCohort;
  planned: PlanSummary;
  planSlices: Uint8Array[];
  previewJson: Uint8Array;
  meetingFile: string;
  fingerprint: string;
}

/** A preview waits this long for its commit; two at most are kept (two admins at once). */
const KEEP_PREVIEW_MS = 15 * 60_000;
export type ImportPreviews = PreviewCache<Prepared>;
export const importPreviewCache = (): ImportPreviews => new PreviewCache<Prepared>(KEEP_PREVIEW_MS, 2);

const NEW_COHORT_FIELDS = [
  ["cohortName", "Cohort name"],
  ["programType", "Program type"],
  ["startDate", "Start date"],
  ["endDate", "End date"],
  ["totalExpectedHours", "Total expected hours"],
] as const;

/** The chosen cohort, or the new one the form describes (checked here, created by the commit). */
async function resolveCohort(db: DbExecutor, fields: ImportFormFields): Promise<ImportCohort> {
  if (fields.cohortId !== undefined) {
    const row = await cohorts.findCohort(db, fields.cohortId);
    if (!row) throw notFound("Cohort not found. It may have been deleted; choose another cohort.");
    return {
      id: row.id,
      name: row.name,
      programType: row.program_type,
      startDate: row.start_date,
      endDate: row.end_date,
      totalExpectedHours: row.total_expected_hours,
    };
  }
  const missing = NEW_COHORT_FIELDS.filter(([key]) => fields[key] === undefined || fields[key] === "").map(([, label]) => label);
  if (missing.length > 0) {
    throw badRequest(`Choose an existing cohort, or give the new cohort's ${missing.join(", ").toLowerCase()}.`);
  }
  const { cohortName = "", programType, startDate = "", endDate = "", totalExpectedHours = null } = fields;
  for (const [label, value] of [["Start date", startDate], ["End date", endDate]] as const) {
    if (new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) throw badRequest(`${label} must be a real calendar date`);
  }
  if (endDate <= startDate) throw badRequest("End date must be after the start date");
  if ((await cohorts.findCohortIdByName(db, cohortName)) !== undefined) {
    throw conflict(`A cohort named "${cohortName}" already exists. Choose it as an existing cohort to import another week.`);
  }
  return { id: null, name: cohortName, programType: programType ?? "", startDate, endDate, totalExpectedHours };
}

function checkWeek(cohort: ImportCohort, week: number): void {
  const weeks = cohortWeekCount(cohort.startDate, cohort.endDate);
  if (week > weeks) {
    throw badRequest(`Week ${week} is outside cohort "${cohort.name}": it has ${weeks} week${weeks === 1 ? "" : "s"} (${cohort.startDate} to ${cohort.endDate}).`);
  }
}

const yearLabel = (y: number) => `${y}–${String((y + 1) % 100).padStart(2, "0")}`;

/** A meeting report wholly from another programme year than the cohort is the wrong file or cohort. */
function checkProgrammeYear(cohort: ImportCohort, read: ReadSummary): void {
  if (read.dates.length === 0) return;
  const cohortYear = programmeYearOf(cohort.startDate);
  const years = new Set(read.dates.map(programmeYearOf));
  if (!years.has(cohortYear)) {
    const fileYears = [...years].sort().map(yearLabel).join(", ");
    throw badRequest(
      `The meeting dates in ${read.meetingFile} are in programme year ${fileYears}, but cohort "${cohort.name}" runs in ${yearLabel(cohortYear)}. Check the cohort and the file.`,
    );
  }
}

/**
 * The cohort's members and the students the meeting report names by e-mail or id, passed to
 * the worker a page at a time: the main thread never holds them all (tens of thousands of
 * rows, kept alive until sent, meant long garbage collections).
 */
async function putKnownStudents(db: DbExecutor, work: ImportWorkerClient, cohortId: number | null, read: ReadSummary): Promise<void> {
  let page: KnownStudent[] = [];
  do {
    if (cohortId === null) break;
    page = await repo.findCohortMembersPage(db, cohortId, page.at(-1)?.id ?? 0);
    await work.put("known", page);
  } while (page.length === repo.KNOWN_STUDENTS_PAGE);
  const emailPages = inChunks(read.emails, repo.KNOWN_STUDENTS_PAGE);
  for (const [i, emails] of (emailPages.length > 0 ? emailPages : [[]]).entries()) {
    const ids = i === 0 ? read.ids : [];
    if (emails.length > 0 || ids.length > 0) await work.put("known", await repo.findStudentsByKeys(db, cohortId, emails, ids));
  }
}

/**
 * Reads the files, matches and plans in a worker of the import's own (import-worker-client.ts),
 * looking up what the plan depends on with `db` (the transaction when a commit plans again).
 */
async function planFor(ctx: ServerContext, db: DbExecutor, upload: ImportUpload, onStage: StageListener): Promise<Prepared> {
  onStage("reading");
  const cohort = await resolveCohort(db, upload.fields);
  const week = upload.fields.weekNumber;
  checkWeek(cohort, week);
  const work = new ImportWorkerClient(ctx.config.importWorkerHeapMb);
  try {
    const fingerprint = await repo.readFingerprint(db, cohort.id);
    const { attendanceReport, progressReport, reflectionReport } = upload.files;
    const read = await work.readMeeting(attendanceReport);
    checkProgrammeYear(cohort, read);
    // The worker reads the other two reports while the students are looked up.
    const platform = work.readPlatform(progressReport, reflectionReport);
    platform.catch(() => {}); // awaited below; not unhandled if a lookup fails first
    await putKnownStudents(db, work, cohort.id, read);
    const [schools, teams] = await Promise.all([repo.listSchoolNames(db), repo.listCohortTeams(db, cohort.id)]);
    await platform;
    onStage("matching");
    const matched = await work.match(schools, teams);
    for (const ids of inChunks(matched.existingIds, repo.KNOWN_STUDENTS_PAGE)) {
      await work.put("attendance", await attendance.findAttendanceOn(db, ids, matched.dates));
      if (cohort.id !== null) await work.put("weekly", await weekly.findWeekRows(db, cohort.id, week, ids));
    }
    const planned = await work.makePlan(cohort, week);
    const previewJson = await work.previewJson();
    const planSlices = await work.planSlices();
    return { cohort, planned, planSlices, previewJson, meetingFile: read.meetingFile, fingerprint };
  } finally {
    await work.close();
  }
}

/** What the commit would do, read from the files and the database; writes nothing (the plan is kept for the commit). */
export async function previewImport(
  ctx: ServerContext,
  previews: ImportPreviews,
  actorId: number,
  upload: ImportUpload,
  onStage: StageListener = () => {},
): Promise<JsonText> {
  const prepared = await planFor(ctx, ctx.database.db, upload, onStage);
  const unchanged = await unchangedBy(ctx.database.db, prepared);
  if (prepared.planned.studentCount > 0 && !unchanged) previews.keep(previewKey(actorId, upload), prepared);
  return new JsonText(prepared.previewJson, { unchanged } satisfies Pick<ImportPreview, "unchanged">);
}

/**
 * Whether the plan writes nothing although the files name students (the same files again, or
 * files saying what the database already has), with the import of that week still in force.
 */
async function unchangedBy(db: DbExecutor, prepared: Prepared): Promise<ImportUnchanged | null> {
  const { planned, cohort } = prepared;
  if (planned.studentCount === 0 || planned.changedCount > 0 || cohort.id === null) return null;
  const last = await repo.findLastWeekImport(db, cohort.id, planned.week);
  return {
    cohortName: cohort.name,
    weekNumber: planned.week,
    lastImport: last ? { at: new Date(last.created_at).toISOString(), by: last.user_name } : null,
  };
}

const fileInfo = (files: ImportUpload["files"]) =>
  (Object.entries(files) as Array<[ImportFileField, UploadedReport]>).map(([field, f]) => ({ field, name: f.name, size: f.size, sha256: f.sha256 }));

/** The same person, form and files (by name and SHA-256): the same plan, while the data stays as it was. */
function previewKey(actorId: number, upload: ImportUpload): string {
  const fields = Object.entries(upload.fields).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([actorId, fields, fileInfo(upload.files)]);
}

/** A commit that would write nothing is refused: no empty import batch is ever recorded. */
async function somethingToCommit(db: DbExecutor, prepared: Prepared): Promise<Prepared> {
  if (prepared.planned.studentCount === 0) {
    throw badRequest(`No data to commit: no row of ${prepared.meetingFile} could be used. See the errors in the preview.`);
  }
  const unchanged = await unchangedBy(db, prepared);
  if (unchanged) throw conflict(`${IMPORT_MESSAGES.unchanged(unchanged)} Nothing was saved.`);
  return prepared;
}

/**
 * Writes in one transaction, as one import batch, what the files say: planned from them here,
 * or by this person's preview of the same files. Imports take turns (an advisory lock); a plan
 * made before anything it depends on changed (another import or undo, an edited student, a
 * renamed school) is made again inside the transaction, so no student is ever created twice.
 */
export async function commitImport(
  ctx: ServerContext,
  previews: ImportPreviews,
  actorId: number,
  upload: ImportUpload,
  onStage: StageListener = () => {},
): Promise<JsonText> {
  const { db } = ctx.database;
  let prepared = await somethingToCommit(db, previews.take(previewKey(actorId, upload)) ?? (await planFor(ctx, db, upload, onStage)));
  onStage("writing");
  const written = await db.transaction().execute(async (trx) => {
    await repo.lockImports(trx);
    if ((await repo.readFingerprint(trx, prepared.cohort.id)) !== prepared.fingerprint) {
      // The data changed since the plan was made (it may leave nothing of the files usable).
      prepared = await somethingToCommit(trx, await planFor(ctx, trx, upload, () => {}));
    }
    return await writeBatch(ctx, trx, actorId, upload, prepared);
  });
  refreshPlannerStatistics(ctx);
  // The week's alerts first, so an after-import digest carries them.
  await evaluateAlertsAndAnnounce(ctx, { cohortIds: [written.cohortId], batchId: written.batchId });
  startDigestsAfterImport(ctx);
  return new JsonText(prepared.previewJson, { ...written, unchanged: null } satisfies Omit<ImportCommit, Exclude<keyof ImportPreview, "unchanged">>);
}

/** The plan's rows, the import batch and its audit entry, in the commit's transaction. */
async function writeBatch(ctx: ServerContext, trx: Transaction<Database>, actorId: number, upload: ImportUpload, prepared: Prepared) {
  const at = ctx.clock.now();
  const { cohort, planned } = prepared;
  const plan = { week: planned.week, newStudentCount: planned.newStudentCount, newTeams: planned.newTeams, slices: decodeSlices(prepared.planSlices) };
  let cohortId = cohort.id;
  if (cohortId === null) {
    const created = await cohorts.insertCohort(trx, {
      name: cohort.name,
      program_type: cohort.programType,
      start_date: cohort.startDate,
      end_date: cohort.endDate,
      total_expected_hours: cohort.totalExpectedHours,
      at,
    });
    cohortId = created.id;
  }
  const changes = await writePlan(trx, plan, cohortId, at, ctx.database.engine === "embedded" ? "set-based" : "per-row");
  changes.cohortCreated = cohort.id === null ? cohortId : null;
  const files = fileInfo(upload.files);
  const batchId = await repo.insertBatch(trx, {
    userId: actorId,
    cohortId,
    weekNumber: plan.week,
    files,
    summary: planned.summary,
    createdCohort: cohort.id === null,
    changes,
    at,
  });
  await recordChange(trx, {
    actorId,
    action: "import.committed",
    entity: "import_batch",
    entityId: String(batchId),
    before: null,
    after: { cohortId, cohortName: cohort.name, week: plan.week, files, summary: planned.summary },
    at,
  });
  return { batchId, cohortId };
}
