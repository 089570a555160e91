import { type ReportDataResponse, type StudentsResponse, type StudentsSummary } from "@tally/contract";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { useReportWorld } from "../../../test/report-world.js";

const { t, w, as } = useReportWorld();

type Route = { name: string; call(user: WorldUserKey | null, query: Record<string, number>): Promise<LightMyRequestResponse> };

const qs = (query: Record<string, number>) => new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
const headersOf = (user: WorldUserKey | null) => (user ? as[user] : {});

const ROUTES: Route[] = [
  { name: "GET /api/pdf-reports/generate", call: (u, q) => t.app.inject({ method: "GET", url: `/api/pdf-reports/generate?${qs(q)}`, headers: headersOf(u) }) },
  { name: "GET /api/reports/data", call: (u, q) => t.app.inject({ method: "GET", url: `/api/reports/data?${qs(q)}`, headers: headersOf(u) }) },
  { name: "GET /api/reports/students.csv", call: (u, q) => t.app.inject({ method: "GET", url: `/api/reports/students.csv?${qs(q)}`, headers: headersOf(u) }) },
  {
    name: "POST /api/email/send-report",
    call: (u, q) =>
      t.app.inject({ method: "POST", url: "/api/email/send-report", headers: headersOf(u), payload: { recipient: "funder@example.test", ...q } }),
  },
];

// Which ids each user may name, and which answer as nonexistent (404).
const CASES: Array<[WorldUserKey, string, 200 | 404, () => Record<string, number>]> = [
  ["schoolA", "own school", 200, () => ({ schoolId: w.schools.a.id })],
  ["schoolA", "another school", 404, () => ({ schoolId: w.schools.b.id })],
  ["schoolA", "a missing school", 404, () => ({ schoolId: 987654 })],
  ["schoolA", "a visible cohort", 200, () => ({ cohortId: w.cohorts.open.id })],
  ["schoolA", "a cohort hidden at its school", 404, () => ({ cohortId: w.cohorts.hiddenAtA.id })],
  ["schoolA", "another school's team", 404, () => ({ teamId: w.teams.b1.id })],
  ["schoolA", "own team", 200, () => ({ teamId: w.teams.a2.id })],
  ["schoolB", "another school", 404, () => ({ schoolId: w.schools.a.id })],
  ["districtAB", "an assigned school", 200, () => ({ schoolId: w.schools.b.id })],
  ["districtAB", "an unassigned school", 404, () => ({ schoolId: w.schools.c.id })],
  ["districtAB", "an unassigned school's team", 404, () => ({ teamId: w.teams.c1.id })],
  ["districtNone", "any school", 404, () => ({ schoolId: w.schools.a.id })],
  ["admin", "any school", 200, () => ({ schoolId: w.schools.c.id })],
  ["admin", "a missing school", 404, () => ({ schoolId: 987654 })],
  ["admin", "the demo cohort", 404, () => ({ cohortId: w.cohorts.demo.id })],
  ["superAdmin", "a missing team", 404, () => ({ teamId: 987654 })],
  ["superAdmin", "any team", 200, () => ({ teamId: w.teams.c1.id })],
];

describe.each(ROUTES)("$name", (route) => {
  it("needs a signed-in user", async () => {
    expect((await route.call(null, {})).statusCode).toBe(401);
  });

  it.each(CASES)("%s naming %s → %s", async (user, _what, status, query) => {
    const res = await route.call(user, query());
    expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
    if (status === 404) expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
  });
});

describe("GET /api/reports/data", () => {
  const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

  it.each(["superAdmin", "admin", "districtAB", "districtNone", "schoolA", "schoolB"] as const)(
    "gives %s the dashboard's students and totals",
    async (user) => {
      const body = (await get(user, "/api/reports/data")).json<ReportDataResponse>();
      const list = (await get(user, "/api/students")).json<StudentsResponse>();
      expect(body.students.map((s) => s.id)).toEqual(list.data.map((s) => s.id));
      expect(body.students.map((s) => s.team_name)).toEqual(list.data.map((s) => s.team?.name ?? null));
      expect(body.summary).toEqual((await get(user, "/api/students/summary")).json<StudentsSummary>());
    },
  );

  it("narrows by school, cohort and team like the dashboard", async () => {
    for (const [report, dashboard] of [
      [`schoolId=${w.schools.b.id}`, `school_id=${w.schools.b.id}`],
      [`cohortId=${w.cohorts.open.id}`, `cohortId=${w.cohorts.open.id}`],
      [`teamId=${w.teams.a2.id}`, `teamId=${w.teams.a2.id}`],
    ] as const) {
      const body = (await get("districtAB", `/api/reports/data?${report}`)).json<ReportDataResponse>();
      const list = (await get("districtAB", `/api/students?${dashboard}`)).json<StudentsResponse>();
      expect(body.students.map((s) => s.id)).toEqual(list.data.map((s) => s.id));
      expect(body.summary).toEqual((await get("districtAB", `/api/students/summary?${dashboard}`)).json<StudentsSummary>());
    }
  });

  it("gives each student's attendance shares from its records, and e-mail addresses only when not simplified", async () => {
    const body = (await get("admin", `/api/reports/data?schoolId=${w.schools.b.id}`)).json<ReportDataResponse>();
    const gus = body.students.find((s) => s.id === w.students.bShown.id);
    const records = w.records.filter((r) => r.studentId === w.students.bShown.id);
    const share = (status: string) => Math.round((100 * records.filter((r) => r.status === status).length) / records.length);
    expect(gus).toMatchObject({ presentPct: share("present"), latePct: share("late"), absentPct: share("absent") });
    expect(gus).not.toHaveProperty("email");
    const full = (await get("admin", `/api/reports/data?schoolId=${w.schools.b.id}&simplified=false`)).json<ReportDataResponse>();
    expect(full.students.find((s) => s.id === w.students.bShown.id)?.email).toBe(w.students.bShown.email);
  });

  it("counts only records of cohorts visible where they took place", async () => {
    // Ben's records in the cohort hidden at Alder never count for Alder's users.
    const ben = (await get("schoolA", "/api/reports/data")).json<ReportDataResponse>().students.find((s) => s.id === w.students.aTwoCohorts.id);
    const visible = w.records.filter((r) => r.studentId === w.students.aTwoCohorts.id && r.cohortId === w.cohorts.open.id);
    expect(ben?.presentPct).toBe(Math.round((100 * visible.filter((r) => r.status === "present").length) / visible.length));
  });
});

describe("POST /api/email/send-report without SMTP", () => {
  it("keeps the mail in the outbox, noting the attachment, the copies and the reply address", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/email/send-report",
      headers: as.admin,
      payload: { recipient: "outbox@example.test", cc: "copy@example.test", subject: "Weekly", content: "See attached" },
    });
    expect(res.statusCode).toBe(200);
    const row = await t.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", "outbox@example.test").executeTakeFirstOrThrow();
    expect(row.subject).toBe("Weekly");
    expect(row.text_body).toContain("See attached");
    expect(row.text_body).toMatch(/\[attachment: Attendance-all-cohorts-all-schools-\d{4}-\d\d-\d\d\.pdf, \d+ bytes, not kept in the outbox\]/);
    expect(row.text_body).toContain("[cc: copy@example.test]");
    expect(row.text_body).toContain(`[reply-to: ${w.users.admin.email}]`);
  });
});
