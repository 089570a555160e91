import {
  EDITED_STUDENTS_LISTED,
  type EditedStudent,
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportSummary,
  type ImportsQuery,
  type ImportUndoResponse,
  STUDENT_EDIT_FIELD_LABELS,
} from "@tally/contract";
import { evaluateAlertsAndAnnounce } from "../alerts/alerts-live.service.js";
import type { ServerContext } from "../../context.js";
import type { ImportChanges } from "../../db/schema.js";
import type { DbExecutor } from "../../db/executor.js";
import { conflict, conflictWith, notFound } from "../../lib/errors.js";
import * as attendance from "../attendance/attendance-import.service.js";
import { changesSince, recordChange } from "../audit/audit.service.js";
import * as cohorts from "../cohorts/cohorts-import.service.js";
import * as students from "../students/students-import.service.js";
import * as teams from "../teams/teams-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import * as repo from "./imports.repository.js";
import { refreshPlannerStatistics } from "./planner-statistics.js";

export { lockImports } from "./imports.repository.js";
export type { NewBatch } from "./imports.repository.js";

/** Records a batch (the flag uploader's too) in the caller's transaction, so Undo can take it back. */
export function recordBatch(trx: DbExecutor, batch: repo.NewBatch): Promise<number> {
  return repo.insertBatch(trx, batch);
}

/** Recent import batches, newest first. */
export async function listImports(db: DbExecutor, query: ImportsQuery): Promise<ImportBatch[]> {
  const rows = await repo.listBatches(db, { cohortId: query.cohortId, limit: query.limit });
  return rows.map((r) => ({
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    userName: r.user_name,
    cohortId: r.cohort_id,
    cohortName: r.cohort_name,
    weekNumber: r.week_number,
    files: r.files as ImportBatch["files"],
    summary: r.summary as ImportSummary,
    createdCohort: r.created_cohort,
    undoneAt: r.undone_at ? new Date(r.undone_at).toISOString() : null,
    canUndo: r.newest_open,
    kind: r.kind,
  }));
}

/** The students whose record or cohort and team places an undo of these changes would take away. */
function studentsTouched(c: ImportChanges): number[] {
  return [...new Set([...c.studentsCreated, ...c.cohortMemberships.map(([s]) => s), ...c.teamMemberships.map(([s]) => s)])];
}

const FIELD_ORDER = Object.keys(STUDENT_EDIT_FIELD_LABELS);
const fieldRank = (field: string) => (FIELD_ORDER.includes(field) ? FIELD_ORDER.indexOf(field) : FIELD_ORDER.length);

/** A student's edits since a batch, and the batch's attendance records among them (kept with the student). */
interface EditsSince {
  students: EditedStudent[];
  correctedRecords: Set<number>;
}

/**
 * The students of the batch edited since it, read from the audit rows student edits leave
 * (student.updated: who, when, which fields), and the students whose attendance records of the
 * batch were corrected since (attendance.updated, naming the record). Those rows, not updated_at,
 * are the signal: they say who and what, and nothing else writes them (the flag uploader's
 * Benefit Assignment IDs move updated_at too, and undo of that batch does not move it back).
 */
async function editsSince(db: DbExecutor, c: ImportChanges, since: Date): Promise<EditsSince> {
  const ids = new Set(studentsTouched(c));
  const byStudent = new Map<number, EditedStudent["changes"]>();
  const note = (id: number, change: EditedStudent["changes"][number]) => {
    const list = byStudent.get(id) ?? [];
    list.push(change);
    byStudent.set(id, list);
  };
  for (const change of await changesSince(db, { entity: "student", action: "student.updated", since })) {
    const id = Number(change.entityId);
    if (!ids.has(id)) continue;
    // In the form's order: the database's JSON keeps its own order of keys.
    const fields = Object.keys((change.after ?? {}) as Record<string, unknown>).sort((a, b) => fieldRank(a) - fieldRank(b));
    note(id, { at: change.at.toISOString(), by: change.actorName, fields });
  }
  const records = batchRecords(c);
  const correctedRecords = new Set<number>();
  if (records.size > 0) {
    for (const change of await changesSince(db, { entity: "student", action: attendance.ATTENDANCE_EDIT_ACTION, since })) {
      const recordId = Number((change.after as { attendanceId?: unknown } | null)?.attendanceId);
      if (!records.has(recordId)) continue;
      correctedRecords.add(recordId);
      note(Number(change.entityId), { at: change.at.toISOString(), by: change.actorName, fields: ["attendance"] });
    }
  }
  const names = await students.studentNames(db, [...byStudent.keys()]);
  const edited = [...byStudent]
    .map(([id, changes]) => ({ id, name: names.get(id) ?? `#${id}`, changes: changes.sort((a, b) => a.at.localeCompare(b.at)) }))
    .sort((a, b) => a.id - b.id);
  return { students: edited, correctedRecords };
}

/** The attendance records the batch created or updated. */
function batchRecords(c: ImportChanges): Set<number> {
  return new Set([...c.attendanceCreated, ...c.attendanceUpdated.map(([id]) => id)]);
}

/** The changes without what would take the kept students away (their record, their places and their corrected meetings). */
function withoutStudents(c: ImportChanges, kept: ReadonlySet<number>, correctedRecords: ReadonlySet<number>): ImportChanges {
  if (kept.size === 0) return c;
  return {
    ...c,
    studentsCreated: c.studentsCreated.filter((s) => !kept.has(s)),
    cohortMemberships: c.cohortMemberships.filter(([s]) => !kept.has(s)),
    teamMemberships: c.teamMemberships.filter(([s]) => !kept.has(s)),
    attendanceCreated: c.attendanceCreated.filter((id) => !correctedRecords.has(id)),
    attendanceUpdated: c.attendanceUpdated.filter(([id]) => !correctedRecords.has(id)),
  };
}

/**
 * Restores exactly the state before a batch, in one transaction: rows it created are deleted,
 * rows it updated get their previous values back, and the students, teams and cohort it
 * created go when nothing else refers to them. Only a cohort's newest batch can be undone.
 * A student of the batch edited since it is never silently taken away: the undo answers 409
 * STUDENTS_EDITED with those students, unless asked to keep them (their record, the cohort and
 * team places the batch gave them and the meetings corrected since stay; the rest is undone).
 * A correction of one of the batch's attendance records counts as an edit of its student.
 */
export async function undoImport(
  ctx: ServerContext,
  actorId: number,
  id: number,
  options: { keepEditedStudents: boolean } = { keepEditedStudents: false },
): Promise<ImportUndoResponse> {
  const at = ctx.clock.now();
  const data = await ctx.database.db.transaction().execute(async (trx) => {
    await repo.lockImports(trx);
    const batch = await repo.findBatchForUndo(trx, id);
    if (!batch) throw notFound("Import not found");
    if (batch.undone_at) throw conflict(IMPORT_MESSAGES.alreadyUndone);
    if (batch.has_newer) throw conflict(IMPORT_MESSAGES.onlyNewestUndo);
    // Locked before the edits are read: an edit in flight finishes first (and is seen), a later one waits.
    // (Corrections of meetings take the imports' lock shared: none is in flight now.)
    await students.lockStudents(trx, studentsTouched(batch.changes));
    const { students: edited, correctedRecords } = await editsSince(trx, batch.changes, new Date(batch.created_at));
    if (edited.length > 0 && !options.keepEditedStudents) {
      throw conflictWith("STUDENTS_EDITED", IMPORT_MESSAGES.studentsEditedSince(edited.length), {
        editedStudents: edited.slice(0, EDITED_STUDENTS_LISTED),
        editedStudentsCount: edited.length,
      });
    }
    const kept = new Set(edited.map((s) => s.id));
    const c = withoutStudents(batch.changes, kept, correctedRecords);
    await students.deferRollups(trx);
    const weeklyDataRemoved = await weekly.deleteWeeklyRows(trx, c.weeklyCreated);
    await weekly.setWeeklyValues(trx, c.weeklyUpdated);
    const attendanceRecordsRemoved = await attendance.deleteAttendance(trx, c.attendanceCreated);
    await attendance.setAttendanceStatuses(trx, c.attendanceUpdated);
    await students.restoreBenefitIds(trx, c.benefitIds ?? []);
    await students.deleteTeamMemberships(trx, c.teamMemberships);
    await students.deleteCohortMemberships(trx, c.cohortMemberships);
    const studentsRemoved = await students.deleteUnreferencedStudents(trx, c.studentsCreated);
    await students.refreshRollups(trx, studentsTouched(batch.changes));
    await teams.deleteUnusedTeams(trx, c.teamsCreated);
    const cohortRemoved = c.cohortCreated === null ? false : await cohorts.deleteCohortIfUnused(trx, c.cohortCreated);
    await repo.markUndone(trx, id, actorId, at);
    const result = {
      batchId: id,
      attendanceRecordsRemoved,
      attendanceRecordsRestored: c.attendanceUpdated.length,
      weeklyDataRemoved,
      weeklyDataRestored: c.weeklyUpdated.length,
      studentsRemoved,
      studentsKept: kept.size,
      cohortRemoved,
    };
    await recordChange(trx, {
      actorId,
      action: "import.undone",
      entity: "import_batch",
      entityId: String(id),
      before: { cohortId: batch.cohort_id, week: batch.week_number },
      after: kept.size > 0 ? { ...result, keptStudentIds: [...kept] } : result,
      at,
    });
    return { result, weekNumber: batch.week_number, cohortName: batch.cohort_name ?? "a removed cohort", cohortId: batch.cohort_id };
  });
  refreshPlannerStatistics(ctx);
  await evaluateAlertsAndAnnounce(ctx, { cohortIds: [data.cohortId], undoneBatchId: id });
  // In words, never the batch's internal id (issue 29).
  return { message: IMPORT_MESSAGES.undone(data, data.result), data: data.result };
}
