import { type AlertRules, type AlertRulesBody, DEFAULT_ALERT_RULES, DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildUser } from "../../../test/factories.js";
import { type LoggedIn, loginAs, useTestApp } from "../../../test/test-app.js";
import { listChanges } from "../audit/audit.service.js";

const t = useTestApp();
let as: Record<"admin" | "school", LoggedIn>;
let cohortId: number;
let otherCohortId: number;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  const school = await buildSchool(t.db);
  as = {
    admin: await loginAs(t.app, await buildUser(t.db, { role: "admin" })),
    school: await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId: school.id })),
  };
  // A running cohort: one student missed the last two meetings (consecutive misses at its default 2).
  const cohort = await buildCohort(t.db, { startDate: daysAgo(30), endDate: daysAgo(-30) });
  cohortId = cohort.id;
  otherCohortId = (await buildCohort(t.db)).id;
  const student = await buildStudent(t.db, { schoolId: school.id, cohortIds: [cohortId] });
  await buildAttendance(t.db, [
    { studentId: student.id, cohortId, schoolId: school.id, weekNumber: 1, date: daysAgo(20), meetingType: "mentor", status: "present" },
    { studentId: student.id, cohortId, schoolId: school.id, weekNumber: 2, date: daysAgo(13), meetingType: "mentor", status: "absent" },
    { studentId: student.id, cohortId, schoolId: school.id, weekNumber: 3, date: daysAgo(6), meetingType: "mentor", status: "absent" },
  ]);
});
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "alert_rules").execute();
  await t.db.deleteFrom("alerts").execute();
});

const get = (user: keyof typeof as | null, query = "") =>
  t.app.inject({ method: "GET", url: `/api/alert-rules${query}`, headers: user === null ? {} : as[user].headers });
const put = (user: keyof typeof as | null, payload: unknown) =>
  t.app.inject({ method: "PUT", url: "/api/alert-rules", headers: user === null ? {} : as[user].headers, payload: payload as object });
const preview = (user: keyof typeof as | null, payload: unknown) =>
  t.app.inject({ method: "POST", url: "/api/alert-rules/preview", headers: user === null ? {} : as[user].headers, payload: payload as object });

const body = (over: Partial<AlertRulesBody> = {}): AlertRulesBody => ({ rules: [], cohortOverrides: [], ...over });

describe("GET /api/alert-rules", () => {
  it("needs a signed-in user", async () => {
    expect((await get(null)).statusCode).toBe(401);
  });

  it("gives every role the six default rules and the default schedule when nothing was saved", async () => {
    for (const user of ["admin", "school"] as const) {
      const res = await get(user);
      expect(res.statusCode).toBe(200);
      expect(res.json<AlertRules>()).toEqual({ rules: DEFAULT_ALERT_RULES, cohortOverrides: [], schedule: DEFAULT_ALERT_SCHEDULE, cohortId: null });
    }
  });

  it("refuses a cohortId that is not a positive number, naming it", async () => {
    const res = await get("admin", "?cohortId=abc");
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("cohortId");
  });
});

describe("PUT /api/alert-rules", () => {
  it("saves the rules (one left out keeps its default), audits before and after, and GET reads them back", async () => {
    const res = await put("admin", body({ rules: [{ rule: "flags", enabled: false, severity: "info", params: { perWeek: 4, sameCodeWeeks: 3 } }] }));
    expect(res.statusCode).toBe(200);
    const rules = (await get("school")).json<AlertRules>().rules;
    expect(rules.find((r) => r.rule === "flags")).toEqual({ rule: "flags", enabled: false, severity: "info", params: { perWeek: 4, sameCodeWeeks: 3 } });
    expect(rules.find((r) => r.rule === "consecutive_misses")).toEqual(DEFAULT_ALERT_RULES[1]);
    const [audit] = await listChanges(t.db, { entity: "settings", limit: 1 });
    expect(audit).toMatchObject({ action: "update", entity_id: "alert_rules" });
    expect(JSON.stringify(audit?.before)).toContain('"perWeek":3');
    expect(JSON.stringify(audit?.after)).toContain('"perWeek":4');
  });

  it("resolves a cohort's override with ?cohortId= and leaves other cohorts on the programme's rules", async () => {
    const saved = await put(
      "admin",
      body({ cohortOverrides: [{ cohortId, rule: "consecutive_misses", severity: "info", params: { count: 3 } }] }),
    );
    expect(saved.statusCode).toBe(200);
    const own = (await get("school", `?cohortId=${cohortId}`)).json<AlertRules>();
    expect(own.cohortId).toBe(cohortId);
    expect(own.rules.find((r) => r.rule === "consecutive_misses")).toEqual({
      rule: "consecutive_misses",
      enabled: true,
      severity: "info",
      params: { count: 3, countTogether: true },
    });
    const other = (await get("school", `?cohortId=${otherCohortId}`)).json<AlertRules>();
    expect(other.rules.find((r) => r.rule === "consecutive_misses")).toEqual(DEFAULT_ALERT_RULES[1]);
    expect(own.cohortOverrides).toHaveLength(1);
  });

  it("re-evaluates every cohort after a change: the override that raises the run's threshold ends the alert", async () => {
    expect((await put("admin", body())).statusCode).toBe(200);
    // The world's student also reports too few hours; only the run is followed here.
    const runs = () => t.db.selectFrom("alerts").select(["rule", "condition_ended_at"]).where("cohort_id", "=", cohortId).where("rule", "=", "consecutive_misses");
    expect(await runs().execute()).toEqual([{ rule: "consecutive_misses", condition_ended_at: null }]);
    await put("admin", body({ cohortOverrides: [{ cohortId, rule: "consecutive_misses", params: { count: 3 } }] }));
    const after = await runs().execute();
    expect(after).toHaveLength(1);
    expect(after[0]?.condition_ended_at).not.toBeNull();
  });

  it("is for admins only", async () => {
    expect((await put(null, body())).statusCode).toBe(401);
    expect((await put("school", body())).statusCode).toBe(403);
  });

  it.each([
    ["an unknown rule", body({ rules: [{ rule: "nope" as never, enabled: true, severity: "info", params: {} }] }), "rule"],
    [
      "a rule named twice",
      body({ rules: [DEFAULT_ALERT_RULES[0], DEFAULT_ALERT_RULES[0]] as AlertRulesBody["rules"] }),
      "named twice",
    ],
    [
      "bands that do not rise",
      body({ rules: [{ rule: "attendance_band", enabled: true, severity: "warning", params: { atRiskPercent: 10, chronicPercent: 10, severePercent: 20, minMeetings: 4 } }] }),
      "bands must rise",
    ],
    ["a parameter out of range", body({ rules: [{ rule: "low_hours", enabled: true, severity: "info", params: { percentOfExpected: 120 } }] }), "percentOfExpected"],
    ["an unknown parameter", body({ rules: [{ rule: "low_hours", enabled: true, severity: "info", params: { percentOfExpected: 50, extra: 1 } }] }), "extra"],
    ["a bad severity", body({ rules: [{ rule: "low_hours", enabled: true, severity: "loud" as never, params: { percentOfExpected: 50 } }] }), "severity"],
    ["an override of a cohort that does not exist", body({ cohortOverrides: [{ cohortId: 999_999, rule: "flags", enabled: false }] }), "cohortOverrides.0.cohortId"],
    [
      "an override whose bands, merged, do not rise",
      body({ cohortOverrides: [{ cohortId: 1, rule: "attendance_band", params: { chronicPercent: 30 } }] }),
      "cohortOverrides.0",
    ],
    ["no rules list", { cohortOverrides: [] }, "rules"],
  ])("refuses %s with a 400 naming the field, and saves nothing", async (_name, payload, field) => {
    const overrides = (payload as AlertRulesBody).cohortOverrides?.map((o) => (o.cohortId === 1 ? { ...o, cohortId } : o));
    const res = await put("admin", overrides ? { ...payload, cohortOverrides: overrides } : payload);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(field);
    expect(await t.db.selectFrom("settings").select("key").where("key", "=", "alert_rules").executeTakeFirst()).toBeUndefined();
    const previewed = await preview("admin", overrides ? { ...payload, cohortOverrides: overrides } : payload);
    expect(previewed.statusCode).toBe(400);
  });
});

describe("POST /api/alert-rules/preview", () => {
  it("counts the students each rule would raise now, and writes nothing", async () => {
    const res = await preview("admin", body());
    expect(res.statusCode).toBe(200);
    expect(res.json<{ counts: Record<string, number> }>().counts.consecutive_misses).toBeGreaterThanOrEqual(1);
    const stricter = await preview("admin", body({ rules: [{ rule: "consecutive_misses", enabled: true, severity: "urgent", params: { count: 3, countTogether: true } }] }));
    expect(stricter.json<{ counts: Record<string, number> }>().counts.consecutive_misses).toBe(0);
    expect(await t.db.selectFrom("alerts").select("id").execute()).toEqual([]);
    expect(await t.db.selectFrom("settings").select("key").where("key", "=", "alert_rules").executeTakeFirst()).toBeUndefined();
  });

  it("is for admins only", async () => {
    expect((await preview(null, body())).statusCode).toBe(401);
    expect((await preview("school", body())).statusCode).toBe(403);
  });
});

