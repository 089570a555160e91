import { ERASE_COHORT_RUNNING_MESSAGE, ERASE_RUNNING_COHORT_MESSAGE, type ErasureCounts } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildAttendance,
  buildCohort,
  buildSchool,
  buildSchoolWithId,
  buildStudent,
  buildTeam,
  buildUser,
  buildWeeklyData,
  type BuiltStudent,
} from "../../../test/factories.js";
import * as checks from "../../../test/erasure-checks.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { accessRecorder } from "../access-log/access-log.service.js";
import { emptyBatchChanges } from "../imports/batch-changes.js";

// 2025-02-10: "Spring" runs (2025-01-06 to 2025-03-28), "Autumn" ended in October 2024.
const t = useTestApp({ clock: manualClock(new Date("2025-02-10T12:00:00Z")) });
const headers: Record<"admin" | "superAdmin" | "school", { authorization: string }> = {
  admin: { authorization: "" },
  superAdmin: { authorization: "" },
  school: { authorization: "" },
};
let schoolId = 0;
let spring = 0;
let autumn = 0;
let autumnTeam = 0;

beforeAll(async () => {
  schoolId = (await buildSchool(t.db)).id;
  spring = (await buildCohort(t.db, { name: "Spring", startDate: "2025-01-06", endDate: "2025-03-28" })).id;
  autumn = (await buildCohort(t.db, { name: "Autumn", startDate: "2024-09-02", endDate: "2024-10-25" })).id;
  autumnTeam = (await buildTeam(t.db, { schoolId, cohortId: autumn })).id;
  for (const [key, role] of [["admin", "admin"], ["superAdmin", "super_admin"], ["school", "school_user"]] as const) {
    headers[key].authorization = (await loginAs(t.app, await buildUser(t.db, { role, schoolId }))).headers.authorization;
  }
});

/** A student with a name no other row holds, attendance, weekly data with flags and notes, a team. */
async function studentWithRecords(name: string, cohortId: number, teamId?: number): Promise<BuiltStudent> {
  const student = await buildStudent(t.db, {
    schoolId,
    firstName: `${name}ine`,
    lastName: `${name}feather`,
    email: `${name.toLowerCase()}@example.test`,
    cohortIds: [cohortId],
    teams: teamId ? [teamId] : [],
  });
  await buildAttendance(
    t.db,
    [1, 2].map((weekNumber) => ({ studentId: student.id, cohortId, schoolId, teamId: teamId ?? 0, weekNumber, meetingType: "advisor" as const, status: "present" as const })),
  );
  await buildWeeklyData(t.db, [
    { studentId: student.id, cohortId, weekNumber: 1, flags: [{ type: "low_hours" } as never], reflection: `${name} reflected`, advisorNotes: `Note on ${name}` },
  ]);
  return student;
}

/** An import batch that kept each student's earlier weekly values and Benefit Assignment ID (for Undo). */
async function importBatchRemembering(students: BuiltStudent[]): Promise<void> {
  const weekly = await t.db.selectFrom("weekly_data").select(["id", "student_id"]).where("student_id", "in", students.map((s) => s.id)).execute();
  const nameOf = (id: number) => students.find((s) => s.id === id)?.first_name.replace(/ine$/, "") ?? "";
  const changes = {
    ...emptyBatchChanges(),
    weeklyUpdated: weekly.map((w) => ({
      id: w.id,
      week_start: null,
      flags: [],
      reflection: `Earlier ${nameOf(w.student_id)}`,
      advisor_notes: null,
      hours_reported: null,
      updated_at: "2025-01-01T00:00:00.000Z",
    })),
    benefitIds: students.map((s) => [s.id, null, `BA-${nameOf(s.id)}`]),
  };
  await t.db
    .insertInto("import_batches")
    .values({ cohort_id: autumn, week_number: 1, files: JSON.stringify([]), summary: JSON.stringify({}), changes: JSON.stringify(changes) } as never)
    .execute();
}

const erase = (id: number, who: keyof typeof headers, payload: unknown) =>
  t.app.inject({ method: "DELETE", url: `/api/students/${id}`, headers: headers[who], payload: payload as never });

const rowsNaming = (needle: string) => checks.rowsNaming(t.db, needle);
const rowsWithStudentId = (id: number) => checks.rowsWithStudentId(t.db, id);

describe("DELETE /api/students/:id", () => {
  it("erases every row that names the student, keeps rollups exact and the access record anonymous", async () => {
    const student = await studentWithRecords("Zephyr", autumn, autumnTeam);
    const neighbour = await studentWithRecords("Marigold", autumn, autumnTeam);
    // An audited edit (the names in its before and after) and a read recorded in the access log.
    const put = await t.app.inject({ method: "PUT", url: `/api/students/${student.id}`, headers: headers.admin, payload: { last_name: "Quillfeather" } });
    expect(put.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: `/api/students/${student.id}`, headers: headers.school })).statusCode).toBe(200);
    await accessRecorder(t.ctx).flush();
    // An import batch that kept, for Undo, an earlier weekly row value and Benefit Assignment ID of each student.
    await importBatchRemembering([student, neighbour]);
    expect(Object.keys(await rowsNaming("Quillfeather")).sort()).toEqual(["audit_log", "students"]);

    const res = await erase(student.id, "admin", { reason: "Parent's request" });
    expect(res.statusCode).toBe(200);
    expect(res.json<ErasureCounts>()).toEqual({ students: 1, attendance: 2, weeklyData: 1, cohorts: 1, teams: 1 });

    for (const needle of ["Zephyrine", "Zephyrfeather", "Quillfeather", "zephyr@example.test", "Zephyr reflected", "Note on Zephyr", "Earlier Zephyr", "BA-Zephyr"]) {
      expect(await rowsNaming(needle), needle).toEqual({});
    }
    expect(await rowsNaming("Earlier Marigold")).toEqual({ import_batches: 1 });
    expect(await rowsNaming("BA-Marigold")).toEqual({ import_batches: 1 });
    expect(await rowsWithStudentId(student.id)).toEqual({});
    const access = await t.db.selectFrom("access_log").selectAll().where("student_id", "=", student.id).execute();
    expect(access).toHaveLength(1);
    expect(await rowsWithStudentId(neighbour.id)).not.toEqual({});
    await expectRollupsMatchRecount(t.db);

    const audit = await t.db.selectFrom("audit_log").selectAll().where("action", "=", "student.erased").where("entity_id", "=", String(student.id)).executeTakeFirstOrThrow();
    expect(audit.after).toEqual({ reason: "Parent's request", forced: false, students: 1, attendance: 2, weeklyData: 1, cohorts: 1, teams: 1 });
    // The earlier edit stays as a fact, without its values.
    const edit = await t.db.selectFrom("audit_log").selectAll().where("action", "=", "student.updated").where("entity_id", "=", String(student.id)).executeTakeFirstOrThrow();
    expect(edit.after).toEqual({ last_name: "erased" });

    expect((await erase(student.id, "admin", { reason: "Again" })).statusCode).toBe(404);
  });

  it("refuses a student of a running cohort (409) unless forced with a reason", async () => {
    const student = await studentWithRecords("Runner", spring);
    const refused = await erase(student.id, "admin", { reason: "Left the programme" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(ERASE_RUNNING_COHORT_MESSAGE);
    expect(await rowsWithStudentId(student.id)).not.toEqual({});

    const forced = await erase(student.id, "admin", { reason: "Left the programme", force: true });
    expect(forced.statusCode).toBe(200);
    expect(await rowsWithStudentId(student.id)).toEqual({});
    expect(await rowsNaming("Runnerfeather")).toEqual({});
    await expectRollupsMatchRecount(t.db);
    const audit = await t.db.selectFrom("audit_log").select("after").where("action", "=", "student.erased").where("entity_id", "=", String(student.id)).executeTakeFirstOrThrow();
    expect(audit.after).toMatchObject({ forced: true, reason: "Left the programme" });
  });

  it("answers 400 naming the field for a bad body", async () => {
    const student = await studentWithRecords("Bodycheck", autumn);
    for (const [payload, path] of [
      [{}, "body.reason"],
      [{ reason: "   " }, "body.reason"],
      [{ reason: "ok", force: "yes" }, "body.force"],
    ] as const) {
      const res = await erase(student.id, "admin", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await rowsWithStudentId(student.id)).not.toEqual({});
  });

  it("is for admins in their scope: a school user 403, the demo school's student 404 as an unknown id", async () => {
    const student = await studentWithRecords("Scoped", autumn);
    expect((await erase(student.id, "school", { reason: "x" })).statusCode).toBe(403);
    const demoSchool = await buildSchoolWithId(t.db, 123, "Demo School");
    const demoStudent = await buildStudent(t.db, { schoolId: demoSchool.id });
    const outOfScope = await erase(demoStudent.id, "admin", { reason: "x" });
    const unknown = await erase(987654, "admin", { reason: "x" });
    expect(outOfScope.statusCode).toBe(404);
    expect(outOfScope.json()).toEqual(unknown.json());
    expect(await t.db.selectFrom("students").select("id").where("id", "=", demoStudent.id).executeTakeFirst()).toBeDefined();
    expect(await rowsWithStudentId(student.id)).not.toEqual({});
  });
});

describe("DELETE /api/cohorts/:id/students", () => {
  const eraseCohort = (id: number, who: keyof typeof headers, payload: unknown = { reason: "Retention" }) =>
    t.app.inject({ method: "DELETE", url: `/api/cohorts/${id}/students`, headers: headers[who], payload: payload as never });

  it("erases every student of an ended cohort, keeps the others and the rollups exact", async () => {
    const old = (await buildCohort(t.db, { name: "Old", startDate: "2023-01-09", endDate: "2023-02-17" })).id;
    const team = (await buildTeam(t.db, { schoolId, cohortId: old })).id;
    const students = [await studentWithRecords("Cohorta", old, team), await studentWithRecords("Cohortb", old, team), await studentWithRecords("Cohortc", old)];
    const other = await studentWithRecords("Staying", autumn);

    expect((await eraseCohort(old, "admin")).statusCode).toBe(403);
    expect((await eraseCohort(old, "superAdmin", {})).statusCode).toBe(400);
    expect((await eraseCohort(987654, "superAdmin")).statusCode).toBe(404);
    const running = await eraseCohort(spring, "superAdmin");
    expect(running.statusCode).toBe(409);
    expect(running.json().error).toBe(ERASE_COHORT_RUNNING_MESSAGE);

    const res = await eraseCohort(old, "superAdmin");
    expect(res.statusCode).toBe(200);
    expect(res.json<ErasureCounts>()).toEqual({ students: 3, attendance: 6, weeklyData: 3, cohorts: 3, teams: 2 });
    for (const s of students) expect(await rowsWithStudentId(s.id)).toEqual({});
    for (const needle of ["Cohortafeather", "Cohortbfeather", "Cohortcfeather"]) expect(await rowsNaming(needle)).toEqual({});
    expect(await rowsWithStudentId(other.id)).not.toEqual({});
    await expectRollupsMatchRecount(t.db);
    const audit = await t.db.selectFrom("audit_log").select("after").where("action", "=", "cohort.students_erased").executeTakeFirstOrThrow();
    expect(audit.after).toEqual({ reason: "Retention", students: 3, attendance: 6, weeklyData: 3, cohorts: 3, teams: 2 });
  });
});
