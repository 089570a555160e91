import type {
  CohortItem,
  CohortVisibilityResponse,
  CohortVisibilitySetting,
  ErrorBody,
  SaveCohortVisibilityResponse,
  StudentsResponse,
  StudentsSummary,
  TeamItem,
  TrendPoint,
} from "@tally/contract";
import { sql } from "kysely";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { listChanges } from "../audit/audit.service.js";

const { t, w, as } = useDashboardWorld();
const URL = "/api/settings/cohort-visibility";

const get = (user: WorldUserKey | null, url: string) =>
  t.app.inject({ method: "GET", url, headers: user === null ? {} : as[user] });
const save = (user: WorldUserKey | null, body: unknown) =>
  t.app.inject({ method: "POST", url: URL, headers: user === null ? {} : as[user], payload: body as object });

const stored = async (): Promise<CohortVisibilitySetting[]> =>
  (
    await t.db
      .selectFrom("cohort_visibility")
      .select(["cohort_id", "school_id", "is_visible"])
      .orderBy("cohort_id")
      .orderBy(sql`coalesce(school_id, 0)`)
      .execute()
  ).map((r) => ({ ...r }));

// The world's own settings, put back after each test so every test starts from them.
let worldRows: CohortVisibilitySetting[];
beforeAll(async () => {
  worldRows = await stored();
});
afterEach(async () => {
  await t.db.deleteFrom("cohort_visibility").execute();
  if (worldRows.length) await t.db.insertInto("cohort_visibility").values(worldRows).execute();
});

const sort = (rows: CohortVisibilitySetting[]) =>
  rows.toSorted((a, b) => a.cohort_id - b.cohort_id || (a.school_id ?? 0) - (b.school_id ?? 0));

const cohortIdsOf = async (user: WorldUserKey) =>
  (await get(user, "/api/cohorts")).json<{ data: CohortItem[] }>().data.map((c) => c.id);
const studentIdsOf = async (user: WorldUserKey) =>
  (await get(user, "/api/students?limit=100")).json<StudentsResponse>().data.map((s) => s.id);
const teamIdsOf = async (user: WorldUserKey) => (await get(user, "/api/teams")).json<{ data: TeamItem[] }>().data.map((x) => x.id);

describe("GET /api/settings/cohort-visibility", () => {
  it("lists every stored row for admins and super admins, sorted by cohort then school", async () => {
    for (const user of ["admin", "superAdmin"] as const) {
      const res = await get(user, URL);
      expect(res.statusCode).toBe(200);
      expect(res.json<CohortVisibilityResponse>().data).toEqual(worldRows);
    }
  });

  it("with school_id, gives the rows that apply at that school: its own and the all-schools rows", async () => {
    const res = await get("admin", `${URL}?school_id=${w.schools.a.id}`);
    const rows = res.json<CohortVisibilityResponse>().data;
    expect(rows.every((r) => r.school_id === null || r.school_id === w.schools.a.id)).toBe(true);
    expect(rows).toContainEqual({ cohort_id: w.cohorts.hiddenAtA.id, school_id: w.schools.a.id, is_visible: false });
    expect(rows).not.toContainEqual(expect.objectContaining({ school_id: w.schools.b.id }));
  });

  it("is for admins only", async () => {
    expect((await get(null, URL)).statusCode).toBe(401);
    for (const user of ["schoolA", "districtAB"] as const) expect((await get(user, URL)).statusCode).toBe(403);
  });

  it("refuses a school id that is no id, naming it", async () => {
    const res = await get("admin", `${URL}?school_id=abc`);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().details?.[0]?.path).toBe("querystring.school_id");
  });
});

describe("POST /api/settings/cohort-visibility", () => {
  it("upserts the named rows, leaves the others, and says so", async () => {
    const res = await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: w.schools.c.id, is_visible: false }, // new row
        { cohort_id: w.cohorts.hiddenAll.id, school_id: null, is_visible: true }, // changed row
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<SaveCohortVisibilityResponse>();
    expect(body.message).toBe("Visibility settings saved successfully.");
    const expected = worldRows
      .map((r) => (r.cohort_id === w.cohorts.hiddenAll.id && r.school_id === null ? { ...r, is_visible: true } : r))
      .concat({ cohort_id: w.cohorts.open.id, school_id: w.schools.c.id, is_visible: false });
    expect(await stored()).toEqual(sort(expected));
    expect(body.data).toEqual(sort(expected));
  });

  it("writes one audit row per save with the changed rows before and after", async () => {
    await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: null, is_visible: true }, // unchanged: not in the audit
        { cohort_id: w.cohorts.open.id, school_id: w.schools.b.id, is_visible: false },
        { cohort_id: w.cohorts.shownAtB.id, school_id: w.schools.b.id, is_visible: false },
      ],
    });
    const [entry] = await listChanges(t.db, { entity: "cohort_visibility", limit: 1 });
    expect(entry).toMatchObject({ actor_id: w.users.admin.id, action: "update" });
    expect(entry?.before).toEqual([
      { cohort_id: w.cohorts.open.id, school_id: w.schools.b.id, is_visible: null },
      { cohort_id: w.cohorts.shownAtB.id, school_id: w.schools.b.id, is_visible: true },
    ]);
    expect(entry?.after).toEqual([
      { cohort_id: w.cohorts.open.id, school_id: w.schools.b.id, is_visible: false },
      { cohort_id: w.cohorts.shownAtB.id, school_id: w.schools.b.id, is_visible: false },
    ]);
  });

  it("refuses the whole batch when one cohort or school id is unknown, naming it", async () => {
    const before = await stored();
    const audits = (await listChanges(t.db, { entity: "cohort_visibility" })).length;
    const res = await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: null, is_visible: false },
        { cohort_id: 999_999, school_id: null, is_visible: false },
        { cohort_id: w.cohorts.open.id, school_id: 888_888, is_visible: true },
      ],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorBody>();
    expect(body.error).toContain("cohort id 999999");
    expect(body.error).toContain("school id 888888");
    expect(body.details?.map((d) => d.path)).toEqual(["body.settings.1.cohort_id", "body.settings.2.school_id"]);
    expect(await stored()).toEqual(before);
    expect((await listChanges(t.db, { entity: "cohort_visibility" })).length).toBe(audits);
  });

  it("refuses a batch naming the same cohort and school twice", async () => {
    const res = await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: null, is_visible: false },
        { cohort_id: w.cohorts.open.id, school_id: null, is_visible: true },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().details?.[0]?.path).toBe("body.settings.1");
    expect(await stored()).toEqual(worldRows);
  });

  it.each([
    [{}, "body.settings"],
    [{ settings: "all" }, "body.settings"],
    [{ settings: [{ cohort_id: 1, school_id: null }] }, "body.settings.0.is_visible"],
    [{ settings: [{ cohort_id: "x", school_id: null, is_visible: true }] }, "body.settings.0.cohort_id"],
    [{ settings: [{ cohort_id: 1, school_id: -3, is_visible: true }] }, "body.settings.0.school_id"],
    [{ settings: [{ cohort_id: 1, school_id: null, is_visible: "yes" }] }, "body.settings.0.is_visible"],
  ])("refuses the malformed body %j with a 400 naming %s", async (body, path) => {
    const res = await save("admin", body);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().details?.map((d) => d.path)).toContain(path);
  });

  it("accepts an empty batch as a no-op", async () => {
    expect((await save("admin", { settings: [] })).statusCode).toBe(200);
    expect(await stored()).toEqual(worldRows);
  });

  it("is for admins and super admins only", async () => {
    const body = { settings: [{ cohort_id: w.cohorts.open.id, school_id: null, is_visible: false }] };
    expect((await save(null, body)).statusCode).toBe(401);
    for (const user of ["schoolA", "districtAB"] as const) expect((await save(user, body)).statusCode).toBe(403);
    expect(await stored()).toEqual(worldRows);
    expect((await save("superAdmin", body)).statusCode).toBe(200);
  });

  it("leaves one consistent state when two saves of the same rows race", async () => {
    const keys = [
      [w.cohorts.open.id, null],
      [w.cohorts.open.id, w.schools.a.id],
      [w.cohorts.hiddenAtA.id, w.schools.a.id],
      [w.cohorts.shownAtB.id, w.schools.b.id],
      [w.cohorts.future.id, w.schools.c.id],
    ] as const;
    // Opposite orders, so that without the lock the two would interleave row by row (or deadlock).
    const batch = (visible: boolean) => {
      const rows = keys.map(([cohort_id, school_id]) => ({ cohort_id, school_id, is_visible: visible }));
      return visible ? rows : rows.toReversed();
    };
    const pick = (rows: CohortVisibilitySetting[]) =>
      keys.map(([c, s]) => rows.find((r) => r.cohort_id === c && r.school_id === s)?.is_visible);
    for (let round = 0; round < 8; round++) {
      // Start half the rounds from no rows at all, so the saves race to insert too.
      if (round % 2 === 0) await t.db.deleteFrom("cohort_visibility").execute();
      const [one, two] = await Promise.all([save("admin", { settings: batch(true) }), save("superAdmin", { settings: batch(false) })]);
      expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
      const now = pick(await stored());
      expect([keys.map(() => true), keys.map(() => false)]).toContainEqual(now);
    }
  });
});

describe("a visibility change applies to the very next request", () => {
  it("a school user stops seeing a cohort (its students, teams and trend) once it is hidden for their school", async () => {
    const open = w.cohorts.open.id;
    expect(await cohortIdsOf("schoolB")).toContain(open);
    expect(await studentIdsOf("schoolB")).toContain(w.students.bOpen.id);
    const bTeams = await teamIdsOf("schoolB");
    expect(bTeams).toContain(w.teams.b1.id);
    const trendBefore = (await get("schoolB", `/api/attendance/cohort-trends?cohortId=${open}`)).json<{ data: TrendPoint[] }>().data;
    expect(trendBefore.length).toBeGreaterThan(0);

    expect((await save("admin", { settings: [{ cohort_id: open, school_id: w.schools.b.id, is_visible: false }] })).statusCode).toBe(200);

    expect(await cohortIdsOf("schoolB")).not.toContain(open);
    expect(await teamIdsOf("schoolB")).not.toContain(w.teams.b1.id);
    // Finn is also in "Hidden At Alder", still visible at Birch: he stays, Gus (shownAtB only) too.
    expect(await studentIdsOf("schoolB")).toContain(w.students.bOpen.id);
    expect((await get("schoolB", `/api/attendance/cohort-trends?cohortId=${open}`)).json<{ data: TrendPoint[] }>().data).toEqual([]);
    // Other schools are untouched.
    expect(await cohortIdsOf("schoolA")).toContain(open);
    expect(await teamIdsOf("districtAB")).toContain(w.teams.a1.id);
    expect(await teamIdsOf("districtAB")).not.toContain(w.teams.b1.id);

    // Shown again: back on the next request.
    await save("admin", { settings: [{ cohort_id: open, school_id: w.schools.b.id, is_visible: true }] });
    expect(await cohortIdsOf("schoolB")).toContain(open);
  });

  it("hides students whose every cohort is hidden at their school", async () => {
    // Ada is only in "Spring Open".
    expect(await studentIdsOf("schoolA")).toContain(w.students.aMover.id);
    await save("admin", { settings: [{ cohort_id: w.cohorts.open.id, school_id: null, is_visible: false }] });
    expect(await studentIdsOf("schoolA")).not.toContain(w.students.aMover.id);
    expect(await studentIdsOf("districtAB")).not.toContain(w.students.aMover.id);
    expect((await get("schoolA", `/api/students/${w.students.aMover.id}`)).statusCode).toBe(404);
    // Admins are not bound by visibility.
    expect(await studentIdsOf("admin")).toContain(w.students.aMover.id);
  });

  it("a school's own row beats the all-schools row, both ways", async () => {
    const open = w.cohorts.open.id;
    await save("admin", {
      settings: [
        { cohort_id: open, school_id: null, is_visible: false },
        { cohort_id: open, school_id: w.schools.a.id, is_visible: true },
      ],
    });
    expect(await cohortIdsOf("schoolA")).toContain(open);
    expect(await cohortIdsOf("schoolB")).not.toContain(open);
    await save("admin", {
      settings: [
        { cohort_id: open, school_id: null, is_visible: true },
        { cohort_id: open, school_id: w.schools.a.id, is_visible: false },
      ],
    });
    expect(await cohortIdsOf("schoolA")).not.toContain(open);
    expect(await cohortIdsOf("schoolB")).toContain(open);
  });
});

// Written independently of the server's scope code: a school's own row, else the
// all-schools row, else visible.
const visibleAt = (cohort: string, school: string) => `coalesce(
    (select v.is_visible from cohort_visibility v where v.cohort_id = ${cohort} and v.school_id = ${school}),
    (select v.is_visible from cohort_visibility v where v.cohort_id = ${cohort} and v.school_id is null),
    true)`;

describe("summaries and trends stay exact after a visibility change", () => {
  async function recount(schoolIds: number[]) {
    const schools = schoolIds.join(",");
    const shown = `select s.id, s.school_id from students s where s.school_id in (${schools})
      and (not exists (select 1 from student_cohorts sc where sc.student_id = s.id)
        or exists (select 1 from student_cohorts sc where sc.student_id = s.id and ${visibleAt("sc.cohort_id", "s.school_id")}))`;
    const { rows } = await sql<{ students: number; schools: number; cohorts: number }>`select
        (select count(*)::int from (${sql.raw(shown)}) x) as students,
        (select count(distinct x.school_id)::int from (${sql.raw(shown)}) x) as schools,
        (select count(distinct sc.cohort_id)::int from (${sql.raw(shown)}) x join student_cohorts sc on sc.student_id = x.id
          where ${sql.raw(visibleAt("sc.cohort_id", "x.school_id"))}) as cohorts`.execute(t.db);
    const trend = await sql<{ week: number; meeting_type: string; total: number; present: number; late: number }>`select
        r.week_number as week, r.meeting_type, count(*)::int as total,
        count(*) filter (where r.status = 'present')::int as present, count(*) filter (where r.status = 'late')::int as late
      from attendance_records r where r.school_id in (${sql.raw(schools)}) and ${sql.raw(visibleAt("r.cohort_id", "r.school_id"))}
      group by 1, 2 order by 1`.execute(t.db);
    const weeks = [...new Set(trend.rows.map((r) => r.week))];
    const pct = (week: number, type: string, key: "present" | "late") => {
      const row = trend.rows.find((r) => r.week === week && r.meeting_type === type);
      return row ? Math.round((100 * row[key]) / row.total) : null;
    };
    return {
      summary: rows[0],
      trend: weeks.map((week) => ({
        week,
        mentorPresent: pct(week, "mentor", "present"),
        mentorLate: pct(week, "mentor", "late"),
        advisorPresent: pct(week, "advisor", "present"),
        advisorLate: pct(week, "advisor", "late"),
      })),
    };
  }

  async function expectExact(user: WorldUserKey, schoolIds: number[]) {
    const want = await recount(schoolIds);
    const summary = (await get(user, "/api/students/summary")).json<StudentsSummary>();
    expect({ students: summary.studentCount, schools: summary.schoolCount, cohorts: summary.cohortCount }).toEqual(want.summary);
    expect((await get(user, "/api/students?limit=100")).json<StudentsResponse>().total).toBe(want.summary?.students);
    expect((await get(user, "/api/attendance/cohort-trends")).json<{ data: TrendPoint[] }>().data).toEqual(want.trend);
  }

  it("for school and district users, before and after hiding and showing cohorts", async () => {
    const check = async () => {
      await expectExact("schoolA", [w.schools.a.id]);
      await expectExact("schoolB", [w.schools.b.id]);
      await expectExact("districtAB", [w.schools.a.id, w.schools.b.id]);
    };
    await check();
    await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: w.schools.a.id, is_visible: false },
        { cohort_id: w.cohorts.hiddenAtA.id, school_id: w.schools.a.id, is_visible: true },
        { cohort_id: w.cohorts.shownAtB.id, school_id: null, is_visible: true },
      ],
    });
    await check();
    await save("admin", {
      settings: [
        { cohort_id: w.cohorts.open.id, school_id: null, is_visible: false },
        { cohort_id: w.cohorts.open.id, school_id: w.schools.a.id, is_visible: true },
        { cohort_id: w.cohorts.hiddenAll.id, school_id: w.schools.a.id, is_visible: true },
      ],
    });
    await check();
  });
});
