import type { StudentsSummary } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { buildStudent, buildTeam } from "../../../test/factories.js";
import { manualClock } from "../../lib/clock.js";
import { type DataScope, resolveScope, type ScopeSubject } from "../scope/scope.js";
import { summarizeStudentsBefore, summarizeStudentsByScan } from "./students-summary.repository.js";

// Issue 41: the dashboard's "previous week" totals come from the rollups, with only the students
// changed since the cutoff counted again. At every cutoff and for every scope they must equal
// the scan of the students as they stood then (summarizeStudentsByScan with `before`).

// Wednesday 2025-01-15: the week began Monday 2025-01-13 00:00 UTC, inside the dates below.
const { t, w, as: headers } = useDashboardWorld({ clock: manualClock(new Date("2025-01-15T12:00:00Z")) });

const day = (n: number) => new Date(Date.UTC(2025, 0, n, 9));
/** Every day the rows below are dated on, and the moments between. */
const cutoffs = [
  ...Array.from({ length: 16 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + i))),
  day(7),
  new Date(day(7).getTime() + 1),
  new Date("2025-01-13T00:00:00Z"),
];

function subjectOf(key: WorldUserKey): ScopeSubject {
  const u = w.users[key];
  if (u.role === "admin" || u.role === "super_admin") return { role: u.role, accessibleSchoolIds: "all" };
  if (u.role === "school_user") return { role: u.role, accessibleSchoolIds: u.school_id === null ? [] : [u.school_id] };
  return { role: u.role, accessibleSchoolIds: u.schoolIds };
}

async function scopes(): Promise<Array<{ name: string; scope: DataScope }>> {
  const out: Array<{ name: string; scope: DataScope }> = [];
  for (const key of Object.keys(w.users) as WorldUserKey[]) out.push({ name: key, scope: await resolveScope(t.db, subjectOf(key)) });
  const pair = [w.schools.a.id, w.schools.b.id];
  out.push({ name: "admin, schools A and B", scope: await resolveScope(t.db, subjectOf("admin"), { schoolIds: pair }) });
  out.push({ name: "admin, visibility", scope: await resolveScope(t.db, subjectOf("admin"), { respectVisibility: true }) });
  out.push({ name: "districtAB, school B", scope: await resolveScope(t.db, subjectOf("districtAB"), { schoolIds: [w.schools.b.id] }) });
  return out;
}

/** Every scope at every cutoff against the scan; returns how many answers differed from today's. */
async function expectEqualToScan(): Promise<number> {
  let changed = 0;
  for (const { name, scope } of await scopes()) {
    const now = await summarizeStudentsByScan(t.db, scope, {});
    for (const before of cutoffs) {
      const exact = await summarizeStudentsByScan(t.db, scope, { before });
      expect(await summarizeStudentsBefore(t.db, scope, before), `${name} before ${before.toISOString()}`).toEqual(exact);
      if (JSON.stringify(exact) !== JSON.stringify(now)) changed += 1;
    }
  }
  return changed;
}

beforeAll(async () => {
  const db = t.db;
  // Dates spread over two weeks from each row's ids, so every cutoff splits the world differently:
  // students created on one day, their cohorts and teams joined on the same day or later ones.
  await sql`update students set created_at = ${day(1)}::timestamptz + ((id * 5) % 9) * interval '1 day'`.execute(db);
  await sql`update student_cohorts sc set joined_at = s.created_at + ((sc.student_id + sc.cohort_id) % 3) * interval '1 day'
      from students s where s.id = sc.student_id`.execute(db);
  await sql`update student_teams st set joined_at = s.created_at + ((st.student_id * 7 + st.team_id * 3) % 6) * interval '1 day'
      from students s where s.id = st.student_id`.execute(db);
});

/** Whether some team is the newest team of students at two schools (the team count then reads rollup_school_teams). */
async function someTeamSpreads(): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from rollup_team_spread where school_keys > 1`.execute(t.db);
  return (rows[0]?.n ?? 0) > 0;
}

describe("the previous week's totals from the rollups", () => {
  it("equal the scan of the students as they stood, for every scope and cutoff", async () => {
    expect(await someTeamSpreads()).toBe(false);
    // Not a world where nothing changes: many cutoffs give other totals than today's.
    expect(await expectEqualToScan()).toBeGreaterThan(40);
  }, 240_000);

  it("stay equal with newest teams outside a scope, at two schools, and a team of latecomers", async () => {
    const db = t.db;
    // A student at Alder whose newest team, since day 10, is Cedar's (outside a school user's scope;
    // the team is then some students' newest at two schools), and one who switched to a team of a
    // cohort hidden at Alder on day 12.
    await buildStudent(db, {
      schoolId: w.schools.a.id, firstName: "Lia", lastName: "Lane", cohortIds: [w.cohorts.open.id],
      teams: [{ teamId: w.teams.a1.id, joinedAt: day(3) }, { teamId: w.teams.c1.id, joinedAt: day(10) }],
    });
    await buildStudent(db, {
      schoolId: w.schools.a.id, firstName: "Max", lastName: "Moss", cohortIds: [w.cohorts.open.id, w.cohorts.hiddenAtA.id],
      teams: [{ teamId: w.teams.a2.id, joinedAt: day(2) }, { teamId: w.teams.aHidden.id, joinedAt: day(12) }],
    });
    // A team of its own whose only member arrived on day 14, and a student without school or team.
    const late = await buildTeam(db, { schoolId: w.schools.c.id, cohortId: w.cohorts.open.id, name: "Cedar Latecomers" });
    await buildStudent(db, { schoolId: w.schools.c.id, firstName: "Ned", lastName: "North", cohortIds: [w.cohorts.open.id], teams: [{ teamId: late.id, joinedAt: day(14) }] });
    await buildStudent(db, { schoolId: null, firstName: "Ola", lastName: "Oak", cohortIds: [w.cohorts.shownAtB.id] });
    await sql`update students set created_at = ${day(2)} where first_name in ('Lia', 'Max')`.execute(db);
    await sql`update students set created_at = ${day(11)} where first_name in ('Ned', 'Ola')`.execute(db);
    await sql`update student_cohorts set joined_at = ${day(11)} where student_id in (select id from students where first_name in ('Ned', 'Ola'))`.execute(db);
    expect(await someTeamSpreads()).toBe(true);
    expect(await expectEqualToScan()).toBeGreaterThan(40);
  }, 240_000);

  it("stay equal after moves, removals, a team changing school and a student made all-hidden", async () => {
    const db = t.db;
    await db.updateTable("students").set({ school_id: w.schools.b.id }).where("id", "=", w.students.cOpen.id).execute();
    await db.deleteFrom("student_teams").where("student_id", "=", w.students.aMover.id).where("team_id", "=", w.teams.a2.id).execute();
    await db.updateTable("teams").set({ school_id: w.schools.c.id }).where("id", "=", w.teams.a1.id).execute();
    await db.deleteFrom("student_cohorts").where("student_id", "=", w.students.aTwoCohorts.id).where("cohort_id", "=", w.cohorts.open.id).execute();
    await expectEqualToScan();
  }, 240_000);

  it("are what GET /api/students/summary?previousWeek=true answers, as the week began", async () => {
    const weekStart = new Date("2025-01-13T00:00:00Z");
    for (const key of ["admin", "schoolA", "districtAB"] as const) {
      const res = await t.app.inject({ method: "GET", url: "/api/students/summary?previousWeek=true", headers: headers[key] });
      expect(res.statusCode).toBe(200);
      const exact = await summarizeStudentsByScan(t.db, await resolveScope(t.db, subjectOf(key)), { before: weekStart });
      expect(res.json<StudentsSummary>().previousWeek, key).toEqual({ ...exact, weekStart: "2025-01-13" });
    }
  });
});
