import type { StudentsResponse, StudentsSummary, TrendPoint } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildUser, buildWeeklyData } from "../../../test/factories.js";
import { loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { normaliseName } from "../report-formats/student-names.js";

// Issue 29: the dashboard search reads names as the import does, applies to every figure and
// never crosses the caller's scope.

const t = useTestApp();
const ids = { schoolA: 0, schoolB: 0, cohort: 0 };
const admin = useSignedIn(t, { role: "admin" });
const schoolUser = { headers: {} as Record<string, string> };

const SCHOOL_A = ["José García", "Jürgen Müller", "César Chávez", "Dmitri Silva", "Ana Ñúñez"];
const SCHOOL_B = ["Josefina Garcia", "Dmitri Silvestri"];

beforeAll(async () => {
  const a = await buildSchool(t.db, { name: "Alder High" });
  const b = await buildSchool(t.db, { name: "Birch High" });
  const cohort = await buildCohort(t.db, { name: "Autumn", startDate: "2026-10-26", endDate: "2026-12-04" });
  Object.assign(ids, { schoolA: a.id, schoolB: b.id, cohort: cohort.id });
  schoolUser.headers = (await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId: a.id }))).headers;
  for (const [school, names] of [
    [a.id, SCHOOL_A],
    [b.id, SCHOOL_B],
  ] as const) {
    for (const name of names) {
      const [firstName, lastName] = name.split(" ") as [string, string];
      const s = await buildStudent(t.db, { schoolId: school, firstName, lastName, cohortIds: [cohort.id] });
      // Week 1: everyone present; week 2: Dmitri Silva absent at both meetings, others present.
      const absent = name === "Dmitri Silva";
      await buildAttendance(
        t.db,
        (["mentor", "advisor"] as const).flatMap((meetingType) => [
          { studentId: s.id, cohortId: cohort.id, schoolId: school, weekNumber: 1, meetingType, status: "present" as const },
          { studentId: s.id, cohortId: cohort.id, schoolId: school, weekNumber: 2, meetingType, status: absent ? ("absent" as const) : ("present" as const) },
        ]),
      );
      await buildWeeklyData(t.db, [
        { studentId: s.id, cohortId: cohort.id, weekNumber: 2, flags: absent ? [{ code: "a", text: "Missed mentor" }, { code: "b", text: "Missed advisor" }] : [] },
      ]);
    }
  }
});

const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: "GET", url, headers });
const search = async (headers: Record<string, string>, q: string) => {
  const res = await get(headers, `/api/students?q=${encodeURIComponent(q)}`);
  expect(res.statusCode).toBe(200);
  return res.json<StudentsResponse>();
};
const names = (body: StudentsResponse) => body.data.map((s) => `${s.first_name} ${s.last_name}`).sort();

describe("dashboard search", () => {
  it.each([
    ["garcia", ["Josefina Garcia", "José García"]],
    ["jose", ["José García", "Josefina Garcia"]],
    ["muller", ["Jürgen Müller"]],
    ["MÜLLER", ["Jürgen Müller"]],
    ["cesar chavez", ["César Chávez"]],
    ["  cesar   chavez ", ["César Chávez"]],
    ["Silva, Dmitri", ["Dmitri Silva"]],
    ["silva dmitri", ["Dmitri Silva"]],
    ["nunez", ["Ana Ñúñez"]],
  ])("finds %j as the import reads names", async (q, expected) => {
    expect(names(await search(admin.headers, q))).toEqual([...expected].sort());
  });

  it("matches the start of a name, taking like's pattern characters literally", async () => {
    expect((await search(admin.headers, "%")).total).toBe(0);
    expect((await search(admin.headers, "_ose")).total).toBe(0);
  });

  it("never returns another school's student to a school user", async () => {
    expect(names(await search(schoolUser.headers, "garcia"))).toEqual(["José García"]);
    expect(names(await search(schoolUser.headers, "silvestri"))).toEqual([]);
    // Nor suggests one.
    expect((await search(schoolUser.headers, "silvestri")).suggestion).toBeNull();
  });

  it("suggests the closest name in scope when nothing matches", async () => {
    const body = await search(admin.headers, "Dmitry Silva");
    expect(body.total).toBe(0);
    expect(body.suggestion).toBe("Dmitri Silva");
    expect((await search(admin.headers, "Jurgen Mueller")).suggestion).toBe("Jürgen Müller");
    expect((await search(admin.headers, "zzzz qqqq")).suggestion).toBeNull();
    expect((await search(admin.headers, "garcia")).suggestion).toBeNull();
  });

  it("narrows the totals and the trend to the students found", async () => {
    const summary = (await get(admin.headers, "/api/students/summary?q=silva%2C%20dmitri")).json<StudentsSummary>();
    expect(summary).toMatchObject({ studentCount: 1, schoolCount: 1 });
    const trend = (await get(admin.headers, "/api/attendance/cohort-trends?q=silva%2C%20dmitri")).json<{ data: TrendPoint[] }>().data;
    expect(trend.map((p) => [p.week, p.mentorPresent, p.advisorPresent])).toEqual([
      [1, 100, 100],
      [2, 0, 0],
    ]);
    const all = (await get(admin.headers, "/api/attendance/cohort-trends")).json<{ data: TrendPoint[] }>().data;
    expect(all.map((p) => p.mentorPresent)).toEqual([100, 86]);
    const none = (await get(admin.headers, "/api/attendance/cohort-trends?q=nobody%20here")).json<{ data: TrendPoint[] }>().data;
    expect(none).toEqual([]);
  });

  it("keeps a school user's trend search within the school", async () => {
    const trend = (await get(schoolUser.headers, "/api/attendance/cohort-trends?q=silvestri")).json<{ data: TrendPoint[] }>().data;
    expect(trend).toEqual([]);
  });

  it("gives each listed student the newest week's flag count and attended share", async () => {
    const body = await search(admin.headers, "dmitri");
    const byName = new Map(body.data.map((s) => [`${s.first_name} ${s.last_name}`, s.latestWeek]));
    expect(byName.get("Dmitri Silva")).toEqual({ week: 2, flagCount: 2, attendedPercent: 0 });
    expect(byName.get("Dmitri Silvestri")).toEqual({ week: 2, flagCount: 0, attendedPercent: 100 });
  });

  it("keys names in SQL exactly as normaliseName does in JavaScript", async () => {
    const written: Array<[string, string]> = [
      ["José", "García"],
      ["  Jürgen ", "Müller  "],
      ["Zoë", "Ångström-Łukasz"],
      ["Nguyễn", "Thị Minh"],
      ["Ana", "Ñúñez"],
      ["Cafe\u0301", "O'Brien"],
      ["Mary  Ann", "De la Cruz"],
    ];
    for (const [first, last] of written) {
      const { rows } = await sql<{ key: string }>`select tally_name_key(${first}, ${last}) as key`.execute(t.db);
      expect(rows[0]?.key, `${first} ${last}`).toBe(normaliseName(`${first} ${last}`));
    }
  });

  it("looks names up through the migration's indexes", async () => {
    const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'students'`.execute(t.db);
    expect(indexes.rows.map((r) => r.indexname)).toEqual(expect.arrayContaining(["students_name_key_idx", "students_name_key_reversed_idx"]));
    await sql`set enable_seqscan = off`.execute(t.db);
    try {
      const plan = await sql<{ "QUERY PLAN": string }>`explain select id from students where name_key like 'jose%'`.execute(t.db);
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("students_name_key_idx");
    } finally {
      await sql`set enable_seqscan = on`.execute(t.db);
    }
  });
});
