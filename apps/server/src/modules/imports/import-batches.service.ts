import { IMPORT_MESSAGES, type ImportBatch, type ImportSummary, type ImportsQuery, type ImportUndoResponse } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { conflict, notFound } from "../../lib/errors.js";
import * as attendance from "../attendance/attendance-import.service.js";
import { recordChange } from "../audit/audit.service.js";
import * as cohorts from "../cohorts/cohorts-import.service.js";
import * as students from "../students/students-import.service.js";
import * as teams from "../teams/teams-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import * as repo from "./imports.repository.js";
import { refreshStatistics } from "./statistics.js";

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

/**
 * Restores exactly the state before a batch, in one transaction: rows it created are deleted,
 * rows it updated get their previous values back, and the students, teams and cohort it
 * created go when nothing else refers to them. Only a cohort's newest batch can be undone.
 */
export async function undoImport(ctx: ServerContext, actorId: number, id: number): Promise<ImportUndoResponse> {
  const at = ctx.clock.now();
  const data = await ctx.database.db.transaction().execute(async (trx) => {
    await repo.lockImports(trx);
    const batch = await repo.findBatchForUndo(trx, id);
    if (!batch) throw notFound("Import not found");
    if (batch.undone_at) throw conflict(IMPORT_MESSAGES.alreadyUndone);
    if (batch.has_newer) throw conflict(IMPORT_MESSAGES.onlyNewestUndo);
    const c = batch.changes;
    await students.deferRollups(trx);
    const weeklyDataRemoved = await weekly.deleteWeeklyRows(trx, c.weeklyCreated);
    await weekly.setWeeklyValues(trx, c.weeklyUpdated);
    const attendanceRecordsRemoved = await attendance.deleteAttendance(trx, c.attendanceCreated);
    await attendance.setAttendanceStatuses(trx, c.attendanceUpdated);
    await students.restoreBenefitIds(trx, c.benefitIds ?? []);
    await students.deleteTeamMemberships(trx, c.teamMemberships);
    await students.deleteCohortMemberships(trx, c.cohortMemberships);
    const studentsRemoved = await students.deleteUnreferencedStudents(trx, c.studentsCreated);
    await students.refreshRollups(trx, [...c.studentsCreated, ...c.cohortMemberships.map(([s]) => s), ...c.teamMemberships.map(([s]) => s)]);
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
      cohortRemoved,
    };
    await recordChange(trx, {
      actorId,
      action: "import.undone",
      entity: "import_batch",
      entityId: String(id),
      before: { cohortId: batch.cohort_id, week: batch.week_number },
      after: result,
      at,
    });
    return result;
  });
  refreshStatistics(ctx);
  return { message: `Import ${id} undone.`, data };
}
