import type { StudentAttendanceResponse, TrendPoint } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { expectedVisible, useDashboardWorld, type WorldUserKey, useDemoToggles } from "../../../test/dashboard-world.js";
import { buildAttendance } from "../../../test/factories.js";
import { percentage } from "./attendance.service.js";

const { t, w, as } = useDashboardWorld();

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

interface TrendFilter {
  schools?: number[];
  cohortId?: number;
  teamId?: number;
  meetingType?: "mentor" | "advisor";
}

/** The trend worked out from the raw attendance_records rows, without the summary table. */
async function expectedTrend(user: WorldUserKey, f: TrendFilter): Promise<TrendPoint[]> {
  const admin = user === "admin" || user === "superAdmin";
  const allowed =
    user === "schoolA" ? [w.schools.a.id] : user === "schoolB" ? [w.schools.b.id] : user === "districtAB" ? [w.schools.a.id, w.schools.b.id] : user === "districtNone" ? [] : null;
  // An admin naming the demo school alone opens its dashboard whole (demo adminAccess, on by default).
  const demoDashboard = admin && f.schools?.length === 1 && f.schools[0] === w.schools.demo.id;
  const raw = await t.db.selectFrom("attendance_records").selectAll().execute();
  const rows = raw.filter(
    (r) =>
      (demoDashboard || (allowed === null ? r.school_id !== w.schools.demo.id : allowed.includes(r.school_id))) &&
      (!f.schools || f.schools.includes(r.school_id)) &&
      (f.cohortId === undefined || r.cohort_id === f.cohortId) &&
      (f.teamId === undefined || r.team_id === f.teamId) &&
      (!f.meetingType || r.meeting_type === f.meetingType) &&
      (demoDashboard || expectedVisible(w, r.cohort_id, r.school_id, admin)),
  );
  const weeks = [...new Set(rows.map((r) => r.week_number))].sort((a, b) => a - b);
  return weeks.map((week) => {
    const of = (type: string) => rows.filter((r) => r.week_number === week && r.meeting_type === type);
    const pct = (type: string, status: string) => {
      const all = of(type);
      return all.length === 0 ? null : Math.round((100 * all.filter((r) => r.status === status).length) / all.length);
    };
    return {
      week,
      mentorPresent: pct("mentor", "present"),
      mentorLate: pct("mentor", "late"),
      advisorPresent: pct("advisor", "present"),
      advisorLate: pct("advisor", "late"),
    };
  });
}

function trendUrl(f: TrendFilter & { raw?: string }): string {
  const params = new URLSearchParams();
  if (f.schools?.length === 1) params.set("school_id", String(f.schools[0]));
  else if (f.schools) params.set("schoolIds", f.schools.join(","));
  if (f.cohortId !== undefined) params.set("cohortId", String(f.cohortId));
  if (f.teamId !== undefined) params.set("teamId", String(f.teamId));
  if (f.meetingType) params.set("meetingType", f.meetingType);
  return `/api/attendance/cohort-trends?${params}${f.raw ?? ""}`;
}

describe("GET /api/attendance/cohort-trends", () => {
  const filters: Array<[string, () => TrendFilter]> = [
    ["everything", () => ({})],
    ["one school", () => ({ schools: [w.schools.a.id] })],
    ["several schools and a cohort", () => ({ schools: [w.schools.a.id, w.schools.b.id], cohortId: w.cohorts.open.id })],
    ["several schools and a hidden-at-A cohort", () => ({ schools: [w.schools.a.id, w.schools.b.id], cohortId: w.cohorts.hiddenAtA.id })],
    ["a team", () => ({ teamId: w.teams.a1.id })],
    ["mentor meetings", () => ({ meetingType: "mentor" })],
    ["advisor meetings of one school", () => ({ schools: [w.schools.b.id], meetingType: "advisor" })],
    ["the cohort shown only at B", () => ({ cohortId: w.cohorts.shownAtB.id })],
    ["another school's team", () => ({ teamId: w.teams.c1.id })],
    ["the demo cohort", () => ({ cohortId: w.cohorts.demo.id })],
    ["the demo school", () => ({ schools: [w.schools.demo.id] })],
  ];
  const users: WorldUserKey[] = ["superAdmin", "admin", "districtAB", "districtNone", "schoolA", "schoolB"];
  for (const [label, filter] of filters) {
    it.each(users)(`matches raw counts for ${label} as %s`, async (user) => {
      const f = filter();
      const res = await get(user, trendUrl(f));
      expect(res.statusCode).toBe(200);
      const expected = await expectedTrend(user, f);
      if (f.meetingType === "mentor") for (const p of expected) Object.assign(p, { advisorPresent: null, advisorLate: null });
      expect(res.json<{ data: TrendPoint[] }>().data).toEqual(expected);
    });
  }

  it("is not empty where data exists (the comparison above is not vacuous)", async () => {
    const body = (await get("districtAB", trendUrl({}))).json<{ data: TrendPoint[] }>();
    expect(body.data.map((p) => p.week)).toEqual([1, 2, 3, 4]);
    expect((await get("schoolA", trendUrl({ cohortId: w.cohorts.hiddenAtA.id }))).json().data).toEqual([]);
    expect((await get("admin", trendUrl({ cohortId: w.cohorts.hiddenAtA.id }))).json().data.length).toBe(3);
  });

  it("admins may ask to respect visibility", async () => {
    const res = await get("admin", trendUrl({ cohortId: w.cohorts.hiddenAll.id, raw: "&respectVisibility=true" }));
    expect(res.json().data).toEqual([]);
    expect((await get("admin", trendUrl({ cohortId: w.cohorts.hiddenAll.id }))).json().data.length).toBe(2);
  });

  it("follows changes to attendance_records (summary kept by triggers)", async () => {
    const before = (await get("schoolB", trendUrl({}))).json<{ data: TrendPoint[] }>().data;
    await buildAttendance(t.db, [
      { studentId: w.students.bOpen.id, schoolId: w.schools.b.id, cohortId: w.cohorts.open.id, teamId: w.teams.b1.id, weekNumber: 9, meetingType: "mentor", status: "late", date: "2026-03-02" },
    ]);
    const after = (await get("schoolB", trendUrl({}))).json<{ data: TrendPoint[] }>().data;
    expect(after).toEqual([...before, { week: 9, mentorPresent: 0, mentorLate: 100, advisorPresent: null, advisorLate: null }]);
    await t.db.deleteFrom("attendance_records").where("week_number", "=", 9).execute();
    expect((await get("schoolB", trendUrl({}))).json().data).toEqual(before);
  });

  it("rounds and clamps percentages", () => {
    expect(percentage(1, 3)).toBe(33);
    expect(percentage(2, 3)).toBe(67);
    expect(percentage(5, 4)).toBe(100);
    expect(percentage(-1, 4)).toBe(0);
    expect(percentage(0, 0)).toBeNull();
  });

  it.each(["meetingType=both2", "cohortId=x", "schoolIds=,,a", "teamId=0"])("answers 400 for %s", async (q) => {
    expect((await get("admin", `/api/attendance/cohort-trends?${q}`)).statusCode).toBe(400);
  });

  it("ignores the legacy school_name and isAdminUser parameters", async () => {
    const res = await get("schoolA", "/api/attendance/cohort-trends?school_name=Other&isAdminUser=true");
    expect(res.json().data).toEqual(await expectedTrend("schoolA", {}));
  });
});

describe("GET /api/attendance/student/:id", () => {
  // The admins' "other" cases are demo students: closed to admins here (adminAccess off); the
  // demo dashboard's own reads, with it on, are in settings/demo-settings.routes.db.test.ts.
  useDemoToggles(t, { adminAccess: false });
  it("lists records with the week label and counts per week", async () => {
    const res = await get("schoolA", `/api/attendance/student/${w.students.aMover.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<StudentAttendanceResponse>();
    const raw = w.records.filter((r) => r.studentId === w.students.aMover.id);
    expect(body.data).toHaveLength(raw.length);
    expect(body.data[0]).toMatchObject({ week_number: 1, formatted_week: "Week 1", cohort_id: w.cohorts.open.id });
    const dates = body.data.map((r) => r.date);
    expect(dates).toEqual(dates.toSorted());
    for (const week of body.weeks) {
      const count = (type: string, status: string) =>
        raw.filter((r) => r.weekNumber === week.week && r.meetingType === type && r.status === status).length;
      expect(week).toEqual({
        week: week.week,
        mentor: { present: count("mentor", "present"), late: count("mentor", "late") },
        advisor: { present: count("advisor", "present"), late: count("advisor", "late") },
      });
    }
    expect(body.weeks.map((x) => x.week)).toEqual([1, 2, 3, 4]);
  });

  it("filters by cohort and dates, and leaves out hidden cohorts for school users", async () => {
    const id = w.students.aTwoCohorts.id;
    const admin = (await get("admin", `/api/attendance/student/${id}`)).json<StudentAttendanceResponse>();
    const school = (await get("schoolA", `/api/attendance/student/${id}`)).json<StudentAttendanceResponse>();
    expect(admin.data.length).toBe(14);
    expect(school.data.length).toBe(8);
    expect(school.data.every((r) => r.cohort_id === w.cohorts.open.id)).toBe(true);
    expect((await get("schoolA", `/api/attendance/student/${id}?cohortId=${w.cohorts.hiddenAtA.id}`)).json().data).toEqual([]);
    const dates = admin.data.filter((r) => r.cohort_id === w.cohorts.open.id).map((r) => r.date);
    const [from, to] = [dates[2], dates[5]];
    const ranged = (await get("admin", `/api/attendance/student/${id}?cohortId=${w.cohorts.open.id}&startDate=${from}&endDate=${to}`)).json<StudentAttendanceResponse>();
    expect(ranged.data.map((r) => r.date)).toEqual(dates.slice(2, 6));
  });

  const cases: Array<[WorldUserKey, string, number, () => number]> = [
    ["superAdmin", "own", 200, () => w.students.cOpen.id],
    ["superAdmin", "other", 404, () => w.students.demo.id],
    ["superAdmin", "missing", 404, () => 987654],
    ["admin", "own", 200, () => w.students.bOpen.id],
    ["admin", "other", 404, () => w.students.aDemoCohort.id],
    ["admin", "missing", 404, () => 987654],
    ["districtAB", "own", 200, () => w.students.aMover.id],
    ["districtAB", "other", 404, () => w.students.cOpen.id],
    ["districtAB", "missing", 404, () => 987654],
    ["schoolA", "own", 200, () => w.students.aMover.id],
    ["schoolA", "other", 404, () => w.students.bOpen.id],
    ["schoolA", "missing", 404, () => 987654],
  ];
  it.each(cases)("%s, %s student → %i", async (user, _kind, status, id) => {
    const res = await get(user, `/api/attendance/student/${id()}`);
    expect(res.statusCode).toBe(status);
    if (status === 404) expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    else expect(res.json<StudentAttendanceResponse>().data.length).toBeGreaterThan(0);
  });

  it.each(["startDate=2025-02-30", "startDate=yesterday", "startDate=2025-03-01&endDate=2025-02-01", "cohortId=-4"])(
    "answers 400 for %s",
    async (q) => {
      expect((await get("admin", `/api/attendance/student/${w.students.cOpen.id}?${q}`)).statusCode).toBe(400);
    },
  );
});
