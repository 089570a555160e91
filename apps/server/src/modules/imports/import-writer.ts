import type { Transaction } from "kysely";
import type { Database, ImportChanges } from "../../db/schema.js";
import { eachInTurns, filterInTurns, loopTurns, mapInTurns } from "../../lib/yield-to-loop.js";
import * as attendance from "../attendance/attendance-import.service.js";
import * as students from "../students/students-import.service.js";
import * as teams from "../teams/teams-import.service.js";
import * as weekly from "../weekly-data/weekly-data-import.service.js";
import type { ImportPlan } from "./import-plan.js";

/**
 * Writes a plan inside the caller's transaction through each table's owner, and returns what
 * Undo needs: the ids of the rows created and the previous values of the rows updated.
 */
export async function writePlan(trx: Transaction<Database>, plan: ImportPlan, cohortId: number, at: Date): Promise<ImportChanges> {
  const atText = at.toISOString();
  await students.deferRollups(trx);
  // Every pass over the 25,000 students of a big week runs in time slices, so that other
  // people's requests keep being answered while the import writes.
  const newStudents = await filterInTurns(plan.students, (p) => p.student.existingId === null);
  const studentIds = await students.reserveStudentIds(trx, newStudents.length);
  const idOf = new Map<ImportPlan["students"][number]["student"], number>();
  newStudents.forEach((p, i) => idOf.set(p.student, studentIds[i] as number));
  const studentId = (p: ImportPlan["students"][number]) => p.student.existingId ?? (idOf.get(p.student) as number);

  const teamKeySet = new Set<string>();
  await eachInTurns(plan.students, (p) => {
    if (p.student.team.kind === "create") teamKeySet.add(p.student.team.key);
  });
  const teamKeys = [...teamKeySet];
  const teamIds = await teams.reserveTeamIds(trx, teamKeys.length);
  const teamIdOf = new Map(teamKeys.map((k, i) => [k, teamIds[i] as number]));
  const newTeams = new Map<string, teams.NewTeamRow>();
  await eachInTurns(plan.students, ({ student }) => {
    const team = student.team;
    if (team.kind === "create" && !newTeams.has(team.key)) {
      newTeams.set(team.key, { id: teamIdOf.get(team.key) as number, name: team.name, school_id: team.schoolId, cohort_id: cohortId });
    }
  });

  await students.insertStudents(
    trx,
    await mapInTurns(newStudents, (p) => ({
      id: idOf.get(p.student) as number,
      first_name: p.student.firstName,
      last_name: p.student.lastName,
      email: p.student.email,
      school_id: p.student.schoolId,
    })),
    at,
  );
  await teams.insertTeams(trx, [...newTeams.values()], at);

  const cohortMemberships: Array<[number, number]> = [];
  await eachInTurns(plan.students, (p) => {
    if (p.student.joinCohort) cohortMemberships.push([studentId(p), cohortId]);
  });
  await students.insertCohortMemberships(trx, cohortMemberships, at);
  const teamMemberships: Array<[number, number]> = [];
  const teamOf = new Map<number, number>();
  await eachInTurns(plan.students, (p) => {
    const team = p.student.team;
    const id = team.kind === "join" ? team.teamId : team.kind === "create" ? (teamIdOf.get(team.key) as number) : null;
    if (id !== null) {
      teamMemberships.push([studentId(p), id]);
      teamOf.set(studentId(p), id);
    }
  });
  await students.insertTeamMemberships(trx, teamMemberships, at);
  await students.refreshRollups(trx, [...studentIds, ...cohortMemberships.map(([id]) => id), ...teamMemberships.map(([id]) => id)]);

  const created: attendance.NewAttendanceRow[] = [];
  const attendanceUpdated: Array<[number, string, string]> = [];
  const statusUpdates: Array<[number, string, string]> = [];
  const turn = loopTurns();
  for (const p of plan.students) {
    if (turn.due()) await turn.yield();
    const id = studentId(p);
    for (const a of p.attendance) {
      if (a.action === "created") {
        created.push({
          student_id: id,
          cohort_id: cohortId,
          school_id: p.student.schoolId,
          team_id: teamOf.get(id) ?? p.student.keptTeamId ?? 0,
          week_number: plan.week,
          date: a.date,
          meeting_type: a.meetingType,
          status: a.status,
        });
      } else if (a.action === "updated" && a.existing) {
        attendanceUpdated.push([a.existing.id, a.existing.status, a.existing.updated_at]);
        statusUpdates.push([a.existing.id, a.status, atText]);
      }
    }
  }
  const attendanceCreated = await attendance.insertAttendance(trx, created, at);
  await attendance.setAttendanceStatuses(trx, statusUpdates);

  const weeklyNew: weekly.NewWeeklyRow[] = [];
  const weeklyUpdated: ImportChanges["weeklyUpdated"] = [];
  const weeklyWrites: Array<weekly.WeeklyValues & { id: number; updated_at: string }> = [];
  for (const p of plan.students) {
    if (turn.due()) await turn.yield();
    const { action, existing, values } = p.weekly;
    if (action === "created") weeklyNew.push({ ...values, student_id: studentId(p), cohort_id: cohortId, week_number: plan.week });
    else if (action === "updated" && existing) {
      const { student_id: _student, ...previous } = existing;
      weeklyUpdated.push(previous);
      weeklyWrites.push({ ...values, id: existing.id, updated_at: atText });
    }
  }
  const weeklyCreated = await weekly.insertWeeklyRows(trx, weeklyNew, at);
  await weekly.setWeeklyValues(trx, weeklyWrites);

  return {
    cohortCreated: null,
    studentsCreated: studentIds,
    teamsCreated: teamIds,
    cohortMemberships,
    teamMemberships,
    attendanceCreated,
    attendanceUpdated,
    weeklyCreated,
    weeklyUpdated,
  };
}
