import {
  ERASE_COHORT_RUNNING_MESSAGE,
  ERASE_RUNNING_COHORT_MESSAGE,
  type EraseCohortStudentsRequest,
  type EraseStudentRequest,
  type ErasureCounts,
} from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { conflict, notFound } from "../../lib/errors.js";
import { eraseAttendanceOf } from "../attendance/attendance-erasure.service.js";
import { recordChange } from "../audit/audit.service.js";
import { redactStudentChanges } from "../audit/audit-erasure.service.js";
import { forgetErasedStudents } from "../imports/import-erasure.service.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import { eraseWeeklyDataOf } from "../weekly-data/weekly-data-erasure.service.js";
import * as students from "../students/student-erasure.service.js";
import { requireStudentInScope } from "../students/students.service.js";

/** Students per transaction of a cohort's erasure: short locks, and a failure loses one batch's work only. */
export const ERASURE_BATCH = 200;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Removes every row that names the students, in the caller's transaction: attendance, weekly
 * data (flags, reflections, notes), memberships, the student rows; earlier audit rows keep
 * only that something changed, and import batches forget the earlier values they kept for Undo. The record of access is left alone: its student_id was never a
 * foreign key and, once the student row is gone, names no one (ids are never reused).
 */
export async function eraseRows(trx: DbExecutor, ids: readonly number[]): Promise<ErasureCounts> {
  const attendance = await eraseAttendanceOf(trx, ids);
  const weeklyIds = await eraseWeeklyDataOf(trx, ids);
  await forgetErasedStudents(trx, ids, weeklyIds);
  await redactStudentChanges(trx, ids);
  const removed = await students.deleteStudents(trx, ids);
  return { ...removed, attendance, weeklyData: weeklyIds.length };
}

/** DELETE /students/:id: one student, in one transaction, audited with the counts (no name). */
export async function eraseStudent(
  ctx: ServerContext,
  user: ScopeSubject & { id: number },
  id: number,
  body: EraseStudentRequest,
): Promise<ErasureCounts> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    if ((await students.lockStudents(trx, [id])).length === 0) throw notFound();
    await requireStudentInScope(trx, await resolveScope(trx, user), id);
    const running = await students.runningCohortsOf(trx, id, isoDay(now));
    if (running.length > 0 && body.force !== true) throw conflict(ERASE_RUNNING_COHORT_MESSAGE);
    const counts = await eraseRows(trx, [id]);
    await recordChange(trx, {
      actorId: user.id,
      action: "student.erased",
      entity: "student",
      entityId: id,
      before: null,
      after: { reason: body.reason, forced: running.length > 0, ...counts },
      at: now,
    });
    return counts;
  });
}

/**
 * DELETE /cohorts/:id/students: every student of the cohort, ERASURE_BATCH to a transaction;
 * one audit row for the cohort with the totals. Refused while the cohort runs.
 */
export async function eraseCohortStudents(
  ctx: ServerContext,
  user: { id: number },
  cohortId: number,
  body: EraseCohortStudentsRequest,
): Promise<ErasureCounts> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const cohort = await students.findCohortRunning(db, cohortId, isoDay(now));
  if (!cohort) throw notFound();
  if (cohort.running) throw conflict(ERASE_COHORT_RUNNING_MESSAGE);
  const total: ErasureCounts = { students: 0, attendance: 0, weeklyData: 0, cohorts: 0, teams: 0 };
  let after = 0;
  for (;;) {
    const ids = await students.cohortStudentIds(db, cohortId, after, ERASURE_BATCH);
    if (ids.length === 0) break;
    after = ids[ids.length - 1] ?? after;
    const counts = await db.transaction().execute(async (trx) => eraseRows(trx, await students.lockStudents(trx, ids)));
    for (const key of Object.keys(total) as Array<keyof ErasureCounts>) total[key] += counts[key];
  }
  await recordChange(db, {
    actorId: user.id,
    action: "cohort.students_erased",
    entity: "cohort",
    entityId: cohortId,
    before: null,
    after: { reason: body.reason, ...total },
    at: now,
  });
  return total;
}
