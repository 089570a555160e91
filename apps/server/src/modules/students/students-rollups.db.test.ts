import type { StudentsResponse, StudentsSummary } from "@tally/contract";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { buildAttendance, buildStudent, buildTeam, dateOfWeek, setCohortVisibility } from "../../../test/factories.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import { summarizeStudentsByScan } from "./students-summary.repository.js";

// The summary and the list total read trigger-maintained rollups (migration 003). After every
// kind of write they must equal a recount from the source tables, and the API's answers must
// equal the exact scan.

const { t, w, as: headers } = useDashboardWorld();

/** Whether some team is the newest team of students at two schools (the summary then counts distinct teams). */
async function someTeamSpreads(): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from rollup_team_spread where school_keys > 1`.execute(t.db);
  return (rows[0]?.n ?? 0) > 0;
}

function subjectOf(key: WorldUserKey): ScopeSubject {
  const u = w.users[key];
  if (u.role === "admin" || u.role === "super_admin") return { role: u.role, accessibleSchoolIds: "all" };
  if (u.role === "school_user") return { role: u.role, accessibleSchoolIds: u.school_id === null ? [] : [u.school_id] };
  return { role: u.role, accessibleSchoolIds: u.schoolIds };
}

/** Every user's summary and list total, with and without school filters, against the scan. */
async function expectAnswersExact(): Promise<void> {
  const requests: Array<{ key: WorldUserKey; query: string; schoolIds?: number[]; respectVisibility?: boolean }> = [
    ...(Object.keys(w.users) as WorldUserKey[]).map((key) => ({ key, query: "" })),
    { key: "admin", query: `schoolIds=${w.schools.a.id},${w.schools.b.id}`, schoolIds: [w.schools.a.id, w.schools.b.id] },
    { key: "admin", query: "respectVisibility=true", respectVisibility: true },
    { key: "districtAB", query: `school_id=${w.schools.b.id}`, schoolIds: [w.schools.b.id] },
  ];
  for (const r of requests) {
    const scope = await resolveScope(t.db, subjectOf(r.key), { schoolIds: r.schoolIds, respectVisibility: r.respectVisibility });
    const exact = await summarizeStudentsByScan(t.db, scope, {});
    const summary = await t.app.inject({ method: "GET", url: `/api/students/summary?${r.query}`, headers: headers[r.key] });
    expect(summary.json<StudentsSummary>(), `${r.key} ${r.query}`).toEqual(exact);
    const list = await t.app.inject({ method: "GET", url: `/api/students?limit=1&${r.query}`, headers: headers[r.key] });
    expect(list.json<StudentsResponse>().total, `${r.key} ${r.query}`).toBe(exact.studentCount);
    // Past the last page the total still comes with the (empty) page.
    const past = await t.app.inject({ method: "GET", url: `/api/students?limit=1&page=999&${r.query}`, headers: headers[r.key] });
    expect(past.json<StudentsResponse>(), `${r.key} ${r.query} past the end`).toMatchObject({ data: [], total: exact.studentCount });
  }
}

describe("dashboard rollups", () => {
  it("match the source tables and the exact counts on the seeded world", async () => {
    // Every team's students share a school here, so the summary sums rollup_team_counts.
    expect(await someTeamSpreads()).toBe(false);
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();
    // Non-trivial: the world has students without a school and students whose cohorts are all hidden.
    const admin = (await t.app.inject({ method: "GET", url: "/api/students/summary", headers: headers.admin })).json<StudentsSummary>();
    expect(admin.studentCount).toBeGreaterThan(5);
  });

  it("stay in step through bulk inserts, moves, team changes and deletes", async () => {
    const db = t.db;
    const extra = await buildStudent(db, {
      schoolId: w.schools.c.id,
      cohortIds: [w.cohorts.open.id, w.cohorts.hiddenAll.id],
      teams: [w.teams.c1.id],
    });
    await db
      .insertInto("students")
      .values([
        { first_name: "Bulk", last_name: "One", school_id: w.schools.a.id },
        { first_name: "Bulk", last_name: "Two", school_id: null },
        { first_name: "Bulk", last_name: "Three", school_id: w.schools.b.id },
      ])
      .execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();

    // A move to another school carries the student's cohorts and team along.
    await db.updateTable("students").set({ school_id: w.schools.a.id }).where("id", "=", extra.id).execute();
    // A name edit changes nothing counted.
    await db.updateTable("students").set({ first_name: "Renamed" }).where("id", "=", w.students.bOpen.id).execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();

    // Team change the way the API does it: an upsert that makes an old membership the newest.
    await db
      .insertInto("student_teams")
      .values({ student_id: w.students.aMover.id, team_id: w.teams.a1.id, joined_at: new Date("2026-06-01T00:00:00Z") })
      .onConflict((oc) => oc.columns(["student_id", "team_id"]).doUpdateSet({ joined_at: new Date("2026-06-01T00:00:00Z") }))
      .execute();
    // A newest team outside a school user's scope (Birch team for an Alder student).
    await db
      .insertInto("student_teams")
      .values({ student_id: w.students.aTwoCohorts.id, team_id: w.teams.b1.id, joined_at: new Date("2026-07-01T00:00:00Z") })
      .execute();
    // Birch's team now has newest members at two schools: the summary counts distinct teams.
    expect(await someTeamSpreads()).toBe(true);
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();

    // A team that moves to another school and cohort carries its counts along, and back.
    await db.updateTable("teams").set({ school_id: w.schools.c.id, cohort_id: w.cohorts.hiddenAll.id }).where("id", "=", w.teams.a1.id).execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();
    await db.updateTable("teams").set({ school_id: w.schools.a.id, cohort_id: w.cohorts.open.id }).where("id", "=", w.teams.a1.id).execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();

    await db.deleteFrom("student_cohorts").where("student_id", "=", w.students.cOpen.id).execute();
    await db.deleteFrom("student_teams").where("student_id", "=", w.students.bShown.id).execute();
    await db.updateTable("student_cohorts").set({ cohort_id: w.cohorts.open.id }).where("student_id", "=", w.students.cShownAtB.id).execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();

    // Deleting students cascades to their memberships.
    await db.deleteFrom("students").where("id", "in", [extra.id, w.students.noSchool.id]).execute();
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();
  });

  it("stay in step through the API's student edit (school and team change)", async () => {
    const team = await buildTeam(t.db, { schoolId: w.schools.b.id, cohortId: w.cohorts.open.id, name: "Birch Newcomers" });
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/students/${w.students.aNoCohort.id}`,
      headers: headers.admin,
      payload: { school_id: w.schools.b.id, team_id: team.id },
    });
    expect(res.statusCode).toBe(200);
    await expectRollupsMatchRecount(t.db);
    await expectAnswersExact();
  });

  it("give the filtered total past the last page too", async () => {
    const url = `/api/students?limit=1&page=999&cohortId=${w.cohorts.open.id}`;
    const filtered = (await t.app.inject({ method: "GET", url, headers: headers.admin })).json<StudentsResponse>();
    const first = (await t.app.inject({ method: "GET", url: url.replace("page=999", "page=1"), headers: headers.admin })).json<StudentsResponse>();
    expect(filtered.data).toEqual([]);
    expect(filtered.total).toBe(first.total);
    expect(first.total).toBeGreaterThan(1);
  });

  it("follow visibility settings without any rollup change", async () => {
    await setCohortVisibility(t.db, w.cohorts.open.id, w.schools.c.id, false);
    await expectAnswersExact();
  });

  it("keep the per-school attendance summary in step with inserts, updates and deletes", async () => {
    const db = t.db;
    await buildAttendance(db, [
      {
        studentId: w.students.cOpen.id, schoolId: w.schools.c.id, cohortId: w.cohorts.open.id, teamId: w.teams.c1.id,
        weekNumber: 9, meetingType: "mentor", status: "late", date: dateOfWeek(9),
      },
    ]);
    await db.updateTable("attendance_records").set({ status: "absent" }).where("week_number", "=", 2).execute();
    await db.deleteFrom("attendance_records").where("week_number", "=", 3).execute();
    await expectRollupsMatchRecount(t.db);
  });
});

describe("the in-step check", () => {
  it("notices a rollup that drifted", async () => {
    await sql`update rollup_school_students set students = students + 1 where school_key = ${w.schools.b.id}`.execute(t.db);
    await expect(expectRollupsMatchRecount(t.db)).rejects.toThrow();
    await sql`update rollup_school_students set students = students - 1 where school_key = ${w.schools.b.id}`.execute(t.db);
    await expectRollupsMatchRecount(t.db);
  });
});
