import type {
  ImportCommit,
  ImportFileField,
  ImportFormFields,
  ImportPreview,
  ImportRowError,
  ImportStage,
  ImportWarning,
} from "@tally/contract";
import { cohortWeekCount } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors.js";
import * as attendance from "../attendance/attendance-import.service.js";
import { recordChange } from "../audit/audit.service.js";
import * as cohorts from "../cohorts/cohorts-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import { addDays } from "../../lib/iso-date.js";
import { eachInTurns, filterInTurns } from "../../lib/yield-to-loop.js";
import { type ImportPlan, planImport, studentDetails } from "./import-plan.js";
import { writePlan } from "./import-writer.js";
import * as repo from "./imports.repository.js";
import { refreshStatistics } from "./statistics.js";
import { readMeetingReport } from "./reports/meeting-report.js";
import { readProgressReport } from "./reports/progress-report.js";
import { readReflectionReport } from "./reports/reflection-report.js";
import { type MeetingRow, type ParsedReport, type ProgressRow, type ReflectionRow, type ReportFile, ReportRejected } from "./reports/report-types.js";
import { matchRoster, type Roster } from "./roster-matching.js";
import { normaliseEmail } from "./student-names.js";

export interface UploadedFile extends ReportFile {
  size: number;
  sha256: string;
}
export interface ImportUpload {
  fields: ImportFormFields;
  files: Record<ImportFileField, UploadedFile>;
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

interface Reports {
  meeting: ParsedReport<MeetingRow>;
  progress: ParsedReport<ProgressRow>;
  reflection: ParsedReport<ReflectionRow>;
}

interface Prepared {
  cohort: ImportCohort;
  plan: ImportPlan;
  roster: Roster;
  fingerprint: string;
}

async function readReports(files: ImportUpload["files"]): Promise<Reports> {
  try {
    return {
      meeting: await readMeetingReport(files.attendanceReport),
      progress: await readProgressReport(files.progressReport),
      reflection: await readReflectionReport(files.reflectionReport),
    };
  } catch (error) {
    if (error instanceof ReportRejected) {
      throw error.statusCode === 413 ? new AppError(413, "PAYLOAD_TOO_LARGE", error.message) : badRequest(error.message);
    }
    throw error;
  }
}

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

/** Programme years run from 1 August to 31 July, like the school year. */
function programmeYear(isoDate: string): number {
  const year = Number(isoDate.slice(0, 4));
  return Number(isoDate.slice(5, 7)) >= 8 ? year : year - 1;
}
const yearLabel = (y: number) => `${y}–${String((y + 1) % 100).padStart(2, "0")}`;

/** A meeting report wholly from another programme year than the cohort is the wrong file or cohort. */
async function checkProgrammeYear(cohort: ImportCohort, meeting: ParsedReport<MeetingRow>): Promise<void> {
  if (meeting.rows.length === 0) return;
  const cohortYear = programmeYear(cohort.startDate);
  // A week's file holds a handful of dates: each is looked at once.
  const dates = new Set<string>();
  await eachInTurns(meeting.rows, (r) => dates.add(r.date));
  const years = new Set([...dates].map(programmeYear));
  if (!years.has(cohortYear)) {
    const fileYears = [...years].sort().map(yearLabel).join(", ");
    throw badRequest(
      `The meeting dates in ${meeting.file} are in programme year ${fileYears}, but cohort "${cohort.name}" runs in ${yearLabel(cohortYear)}. Check the cohort and the file.`,
    );
  }
}

async function planFor(db: DbExecutor, cohort: ImportCohort, week: number, reports: Reports): Promise<Prepared> {
  const fingerprint = await repo.readFingerprint(db, cohort.id);
  const emailSet = new Set<string>();
  const idSet = new Set<number>();
  await eachInTurns(reports.meeting.rows, (r) => {
    const email = normaliseEmail(r.email);
    if (email !== null) emailSet.add(email);
    if (r.studentId !== null) idSet.add(r.studentId);
  });
  const [emails, ids] = [[...emailSet], [...idSet]];
  const [known, schools, teams] = await Promise.all([
    repo.findKnownStudents(db, cohort.id, emails, ids),
    repo.listSchoolNames(db),
    repo.listCohortTeams(db, cohort.id),
  ]);
  const roster = await matchRoster({ ...reports, known, schools, teams });
  const existingIds: number[] = [];
  const dateSet = new Set<string>();
  await eachInTurns(roster.students, (s) => {
    if (s.existingId !== null) existingIds.push(s.existingId);
    for (const m of s.meetings) dateSet.add(m.date);
  });
  const dates = [...dateSet];
  const [existingAttendance, existingWeekly] = await Promise.all([
    attendance.findAttendanceOn(db, existingIds, dates),
    cohort.id === null ? Promise.resolve([]) : weekly.findWeekRows(db, cohort.id, week, existingIds),
  ]);
  const plan = await planImport(cohort, week, roster.students, existingAttendance, existingWeekly);
  return { cohort, plan, roster, fingerprint };
}

async function prepare(db: DbExecutor, upload: ImportUpload, onStage: StageListener): Promise<Prepared & { reports: Reports }> {
  onStage("reading");
  const cohort = await resolveCohort(db, upload.fields);
  checkWeek(cohort, upload.fields.weekNumber);
  const reports = await readReports(upload.files);
  await checkProgrammeYear(cohort, reports.meeting);
  onStage("matching");
  return { ...(await planFor(db, cohort, upload.fields.weekNumber, reports)), reports };
}

function rowErrors(reports: Reports, roster: Roster): ImportRowError[] {
  const parse = [reports.meeting, reports.progress, reports.reflection].flatMap((r) =>
    r.errors.map((e) => ({ studentId: null, type: "parse", ...e })),
  );
  const matching = roster.problems.map((p) => ({ studentId: p.studentId, type: p.type, ...p.error }));
  return [...parse, ...matching].map(({ problem, ...e }) => ({
    ...e,
    error: `${e.file} row ${e.row}, ${e.column} "${e.value}": ${problem}`,
  }));
}

async function warningsOf(prepared: Prepared & { reports: Reports }): Promise<ImportWarning[]> {
  const { plan, roster, reports } = prepared;
  const weekEnd = addDays(plan.weekStart, 6);
  const outside: ImportWarning[] = (await filterInTurns(reports.meeting.rows, (r) => r.date < plan.weekStart || r.date > weekEnd))
    .map((r) => ({
      type: "date_outside_week",
      message: `${reports.meeting.file} row ${r.row}: ${r.date} is outside week ${plan.week} (${plan.weekStart} to ${weekEnd}); it is imported as week ${plan.week}`,
      file: reports.meeting.file,
      row: r.row,
    }));
  return [...outside, ...roster.warnings];
}

async function previewOf(prepared: Prepared & { reports: Reports }): Promise<ImportPreview> {
  return {
    summary: prepared.plan.summary,
    processedStudentDetails: await studentDetails(prepared.plan),
    errorsEncountered: rowErrors(prepared.reports, prepared.roster),
    warnings: await warningsOf(prepared),
  };
}

/** What the commit would do, read from the files and the database; writes nothing. */
export async function previewImport(ctx: ServerContext, upload: ImportUpload, onStage: StageListener = () => {}): Promise<ImportPreview> {
  return await previewOf(await prepare(ctx.database.db, upload, onStage));
}

const fileInfo = (files: ImportUpload["files"]) =>
  (Object.entries(files) as Array<[ImportFileField, UploadedFile]>).map(([field, f]) => ({ field, name: f.name, size: f.size, sha256: f.sha256 }));

/**
 * Recomputes everything from the files and writes it in one transaction, as one import batch.
 * Imports take turns (an advisory lock); a plan made before another import or undo landed is
 * made again inside the transaction, so no student is ever created twice.
 */
export async function commitImport(
  ctx: ServerContext,
  actorId: number,
  upload: ImportUpload,
  onStage: StageListener = () => {},
): Promise<ImportCommit> {
  const { db } = ctx.database;
  let prepared = await prepare(db, upload, onStage);
  if (prepared.plan.students.length === 0) {
    throw badRequest(`No data to commit: no row of ${prepared.reports.meeting.file} could be used. See the errors in the preview.`);
  }
  onStage("writing");
  const at = ctx.clock.now();
  const written = await db.transaction().execute(async (trx) => {
    await repo.lockImports(trx);
    if ((await repo.readFingerprint(trx, prepared.cohort.id)) !== prepared.fingerprint) {
      const cohort = await resolveCohort(trx, upload.fields);
      prepared = { ...(await planFor(trx, cohort, upload.fields.weekNumber, prepared.reports)), reports: prepared.reports };
    }
    const { cohort, plan } = prepared;
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
    const changes = await writePlan(trx, plan, cohortId, at);
    changes.cohortCreated = cohort.id === null ? cohortId : null;
    const files = fileInfo(upload.files);
    const batchId = await repo.insertBatch(trx, {
      userId: actorId,
      cohortId,
      weekNumber: plan.week,
      files,
      summary: plan.summary,
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
      after: { cohortId, cohortName: cohort.name, week: plan.week, files, summary: plan.summary },
      at,
    });
    return { batchId, cohortId };
  });
  refreshStatistics(ctx);
  return { ...(await previewOf(prepared)), ...written };
}
