import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent } from "../../../test/factories.js";
import { useTestApp } from "../../../test/test-app.js";
import type { StudentPlan } from "./import-plan.js";
import { type ReferenceChecks, writePlan } from "./import-writer.js";

// The writer's references, checked once per id on the embedded engine instead of per row by
// foreign keys: a plan naming a row that is gone is refused whole, on either way of checking.

const t = useTestApp();

function planFor(studentId: number, schoolId: number, teamId: number | null = null): StudentPlan {
  return {
    student: {
      existingId: studentId,
      fullName: "Ada Lovelace",
      firstName: "Ada",
      lastName: "Lovelace",
      email: null,
      schoolId,
      joinCohort: true,
      team: teamId === null ? { kind: "none" } : { kind: "join", teamId },
      keptTeamId: null,
    },
    attendance: [{ action: "created", existing: null, date: "2026-09-22", meetingType: "mentor", status: "present", excused: false }],
    weekly: {
      action: "created",
      existing: null,
      values: { week_start: "2026-09-21", flags: [], reflection: null, advisor_notes: null, hours_reported: 3 },
    },
  };
}

const write = (cohortId: number, students: StudentPlan[], checks: ReferenceChecks) =>
  t.db.transaction().execute((trx) =>
    writePlan(trx, { week: 3, newStudentCount: 0, newTeams: [], slices: [students] }, cohortId, new Date("2026-09-25T12:00:00Z"), checks),
  );

const count = async (table: "attendance_records" | "weekly_data" | "student_cohorts", cohortId: number) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where cohort_id = ${cohortId}`.execute(t.db)).rows[0]?.n;

describe.each(["per-row", "set-based"] as const)("the import's writer, references checked %s", (checks) => {
  it("writes a plan whose students, school and cohort exist, and leaves the role as it was", async () => {
    const school = await buildSchool(t.db, {});
    const cohort = await buildCohort(t.db, { startDate: "2026-09-07", endDate: "2026-11-15" });
    const student = await buildStudent(t.db, { schoolId: school.id });
    const role = await t.db.transaction().execute(async (trx) => {
      await writePlan(trx, { week: 3, newStudentCount: 0, newTeams: [], slices: [[planFor(student.id, school.id)]] }, cohort.id, new Date(), checks);
      return (await sql<{ role: string }>`select current_setting('session_replication_role') as role`.execute(trx)).rows[0]?.role;
    });
    expect(role).toBe("origin");
    expect([await count("attendance_records", cohort.id), await count("weekly_data", cohort.id), await count("student_cohorts", cohort.id)]).toEqual([1, 1, 1]);
  });

  it("refuses a plan naming a student that is gone, and writes none of it", async () => {
    const school = await buildSchool(t.db, {});
    const cohort = await buildCohort(t.db, { startDate: "2026-09-07", endDate: "2026-11-15" });
    const kept = await buildStudent(t.db, { schoolId: school.id });
    const gone = await buildStudent(t.db, { schoolId: school.id });
    await t.db.deleteFrom("students").where("id", "=", gone.id).execute();
    const attempt = write(cohort.id, [planFor(kept.id, school.id), planFor(gone.id, school.id)], checks);
    await expect(attempt).rejects.toThrow(checks === "set-based" ? `student ${gone.id} no longer exists.` : /foreign key/);
    expect([await count("attendance_records", cohort.id), await count("weekly_data", cohort.id), await count("student_cohorts", cohort.id)]).toEqual([0, 0, 0]);
  });

  it("refuses a plan naming a team or school that is gone", async () => {
    const school = await buildSchool(t.db, {});
    const cohort = await buildCohort(t.db, { startDate: "2026-09-07", endDate: "2026-11-15" });
    const student = await buildStudent(t.db, { schoolId: school.id });
    await expect(write(cohort.id, [planFor(student.id, school.id, 999_999)], checks)).rejects.toThrow(checks === "set-based" ? "team 999999" : /foreign key/);
    await expect(write(cohort.id, [planFor(student.id, 999_998)], checks)).rejects.toThrow(checks === "set-based" ? "school 999998" : /foreign key/);
    await expect(write(999_997, [planFor(student.id, school.id)], checks)).rejects.toThrow(checks === "set-based" ? "cohort 999997" : /foreign key/);
    expect(await count("attendance_records", cohort.id)).toBe(0);
  });
});
