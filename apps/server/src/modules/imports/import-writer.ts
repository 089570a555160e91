import type { Transaction } from "kysely";
import type { Database, ImportChanges } from "../../db/schema.js";
import * as attendance from "../attendance/attendance-import.service.js";
import * as students from "../students/students-import.service.js";
import * as teams from "../teams/teams-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import { conflict } from "../../lib/errors.js";
import { emptyBatchChanges } from "./batch-changes.js";
import type { NewTeam, StudentPlan } from "./import-plan.js";
import { findMissingReferences, type ReferencedIds, setRowReferenceChecks } from "./imports.repository.js";

/**
 * What the writer is given: the counts it reserves ids for first, then the students with
 * something to write, a slice at a time (decoded from the JSON the import's worker made, one
 * slice at a time, so this thread never holds a whole week's objects).
 */
export interface WritablePlan {
  week: number;
  newStudentCount: number;
  newTeams: NewTeam[];
  slices: Iterable<StudentPlan[]>;
}

export function* decodeSlices(slices: readonly Uint8Array[]): Iterable<StudentPlan[]> {
  const decoder = new TextDecoder();
  for (const bytes of slices) yield JSON.parse(decoder.decode(bytes)) as StudentPlan[];
}

/**
 * How the references of the rows written are checked: by PostgreSQL's foreign key triggers, a
 * row at a time, or ("set-based", the embedded engine only) once per referenced id before the
 * rows that refer to it are written. Per row, 50,000 meeting rows spent more time on the checks
 * than on the rows (2.1 s against 0.8 s on the embedded engine).
 */
export type ReferenceChecks = "per-row" | "set-based";

const distinct = (ids: Iterable<number | null | undefined>) => [...new Set([...ids].filter((id): id is number => id != null))];

async function checkReferences(trx: Transaction<Database>, ids: ReferencedIds): Promise<void> {
  const missing = await findMissingReferences(trx, ids);
  if (missing.length === 0) return;
  const named = missing.slice(0, 5).map((m) => `${m.kind.slice(0, -1)} ${m.id}`);
  throw conflict(
    `The data changed while the import was being saved: ${named.join(", ")}${missing.length > 5 ? " and others" : ""} ${missing.length === 1 ? "no longer exists" : "no longer exist"}. Nothing was saved; preview the files again.`,
  );
}

/**
 * Writes a plan inside the caller's transaction through each table's owner, slice by slice,
 * and returns what Undo needs: the ids of the rows created and the previous values of the
 * rows updated.
 */
export async function writePlan(
  trx: Transaction<Database>,
  plan: WritablePlan,
  cohortId: number,
  at: Date,
  referenceChecks: ReferenceChecks,
): Promise<ImportChanges> {
  const setBased = referenceChecks === "set-based";
  const atText = at.toISOString();
  await students.deferRollups(trx);
  if (setBased) {
    await setRowReferenceChecks(trx, false);
    await checkReferences(trx, { students: [], schools: distinct(plan.newTeams.map((t) => t.schoolId)), teams: [], cohorts: [cohortId] });
  }
  const studentIds = await students.reserveStudentIds(trx, plan.newStudentCount);
  const teamIds = await teams.reserveTeamIds(trx, plan.newTeams.length);
  const teamIdOf = new Map(plan.newTeams.map((t, i) => [t.key, teamIds[i] as number]));
  await teams.insertTeams(
    trx,
    plan.newTeams.map((t) => ({ id: teamIdOf.get(t.key) as number, name: t.name, school_id: t.schoolId, cohort_id: cohortId })),
    at,
  );

  const changes: ImportChanges = { ...emptyBatchChanges(), studentsCreated: studentIds, teamsCreated: teamIds };
  let newStudents = 0;
  // Whose rollups to bring up to date at the end: gathered slice by slice, not in one pass.
  const rollupIds = new Set(studentIds);
  for (const slice of plan.slices) {
    const ids = slice.map((p) => p.student.existingId ?? (studentIds[newStudents++] as number));
    if (setBased) {
      await checkReferences(trx, {
        students: distinct(slice.map((p) => p.student.existingId)),
        schools: distinct(slice.map((p) => p.student.schoolId)),
        teams: distinct(slice.map((p) => (p.student.team.kind === "join" ? p.student.team.teamId : null))),
        cohorts: [],
      });
    }
    await students.insertStudents(
      trx,
      slice.flatMap((p, i) =>
        p.student.existingId === null
          ? [{ id: ids[i] as number, first_name: p.student.firstName, last_name: p.student.lastName, email: p.student.email, school_id: p.student.schoolId }]
          : [],
      ),
      at,
    );

    const cohortMemberships = slice.flatMap((p, i): Array<[number, number]> => (p.student.joinCohort ? [[ids[i] as number, cohortId]] : []));
    await students.insertCohortMemberships(trx, cohortMemberships, at);
    const teamOf = slice.map((p) => {
      const team = p.student.team;
      return team.kind === "join" ? team.teamId : team.kind === "create" ? (teamIdOf.get(team.key) as number) : null;
    });
    const teamMemberships = slice.flatMap((_, i): Array<[number, number]> => (teamOf[i] != null ? [[ids[i] as number, teamOf[i] as number]] : []));
    await students.insertTeamMemberships(trx, teamMemberships, at);
    changes.cohortMemberships.push(...cohortMemberships);
    changes.teamMemberships.push(...teamMemberships);
    for (const [id] of cohortMemberships) rollupIds.add(id);
    for (const [id] of teamMemberships) rollupIds.add(id);

    const created: attendance.NewAttendanceRow[] = [];
    const statusUpdates: Array<[number, string, string, boolean]> = [];
    const weeklyNew: weekly.NewWeeklyRow[] = [];
    const weeklyWrites: Array<weekly.WeeklyValues & { id: number; updated_at: string }> = [];
    slice.forEach((p, i) => {
      const id = ids[i] as number;
      for (const a of p.attendance) {
        if (a.action === "created") {
          created.push({
            student_id: id,
            cohort_id: cohortId,
            school_id: p.student.schoolId,
            team_id: teamOf[i] ?? p.student.keptTeamId ?? 0,
            week_number: plan.week,
            date: a.date,
            meeting_type: a.meetingType,
            status: a.status,
            excused: a.excused,
          });
        } else if (a.action === "updated" && a.existing) {
          changes.attendanceUpdated.push([a.existing.id, a.existing.status, a.existing.updated_at, a.existing.excused]);
          statusUpdates.push([a.existing.id, a.status, atText, a.excused]);
        }
      }
      const { action, existing, values } = p.weekly;
      // Fields written out, not spread: V8 gives an object made with a spread a hidden class of its own.
      const { week_start, flags, reflection, advisor_notes, hours_reported } = values;
      if (action === "created") {
        weeklyNew.push({ student_id: id, cohort_id: cohortId, week_number: plan.week, week_start, flags, reflection, advisor_notes, hours_reported });
      } else if (action === "updated" && existing) {
        changes.weeklyUpdated.push({
          id: existing.id,
          week_start: existing.week_start,
          flags: existing.flags,
          reflection: existing.reflection,
          advisor_notes: existing.advisor_notes,
          hours_reported: existing.hours_reported,
          updated_at: existing.updated_at,
        });
        weeklyWrites.push({ id: existing.id, updated_at: atText, week_start, flags, reflection, advisor_notes, hours_reported });
      }
    });
    changes.attendanceCreated.push(...(await attendance.insertAttendance(trx, created, at)));
    await attendance.setAttendanceStatuses(trx, statusUpdates);
    changes.weeklyCreated.push(...(await weekly.insertWeeklyRows(trx, weeklyNew, at)));
    await weekly.setWeeklyValues(trx, weeklyWrites);
  }
  await students.refreshRollups(trx, [...rollupIds]);
  if (setBased) await setRowReferenceChecks(trx, true);
  return changes;
}
