import { programmeYearStart } from "@tally/contract";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildUser } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { evaluateAlerts, type RuleEvaluators } from "./alert-evaluation.service.js";
import type { RuleEvaluator } from "./rules/rule-facts.js";

// Episodes, with a stand-in rule whose level each test sets per student: what matters here is
// how verdicts become alerts (opened, updated, escalated, reopened, ended, withdrawn).

const database = useTestDatabase();
const db = () => database.db;
let cohortId: number;
let ann: number;
let bob: number;
let batchIds: number[];
const levels = new Map<number, number>();

const flagsRule: RuleEvaluator<"flags"> = (student) => {
  const level = levels.get(student.studentId);
  return level === undefined ? null : { level, evidence: `${level} flags`, details: { level, weeks: [level] } };
};
const none = () => null;
const evaluators: RuleEvaluators = {
  attendance_band: none,
  consecutive_misses: none,
  target_out_of_reach: none,
  flags: flagsRule,
  missing_from_reports: none,
  low_hours: none,
};

const JULY = new Date("2026-07-20T09:00:00Z");
const run = (opts: { now?: Date; batchId?: number; undoneBatchId?: number } = {}) =>
  evaluateAlerts(db(), { cohortIds: [cohortId], now: opts.now ?? JULY, batchId: opts.batchId, undoneBatchId: opts.undoneBatchId }, evaluators);

const alertsOf = (studentId: number) =>
  db()
    .selectFrom("alerts")
    .select(["id", "rule", "state", "level", "evidence", "severity", "year_start", "raised_by_batch", "condition_ended_at", "data_withdrawn"])
    .where("student_id", "=", studentId)
    .orderBy("id")
    .execute();
const eventsOf = async (alertId: number) =>
  (await db().selectFrom("alert_events").select(["kind", "level"]).where("alert_id", "=", alertId).orderBy("id").execute()).map((e) => `${e.kind}:${e.level}`);

beforeAll(async () => {
  const school = await buildSchool(db());
  cohortId = (await buildCohort(db(), { startDate: "2026-06-01", endDate: "2026-09-30" })).id;
  ann = (await buildStudent(db(), { schoolId: school.id, cohortIds: [cohortId] })).id;
  bob = (await buildStudent(db(), { schoolId: school.id, cohortIds: [cohortId] })).id;
  const user = await buildUser(db(), { role: "admin" });
  batchIds = [];
  for (const week of [1, 2]) {
    const batch = await db()
      .insertInto("import_batches")
      .values({ user_id: user.id, cohort_id: cohortId, week_number: week, files: "[]", summary: "{}", created_cohort: false, changes: "{}" })
      .returning("id")
      .executeTakeFirstOrThrow();
    batchIds.push(batch.id);
  }
});
beforeEach(async () => {
  levels.clear();
  await db().deleteFrom("alerts").execute();
});

describe("evaluateAlerts: episodes", () => {
  it("opens one alert per student and rule with its level, evidence, severity, batch and programme year, and an 'opened' event", async () => {
    levels.set(ann, 3);
    const result = await run({ batchId: batchIds[0] });
    expect(result).toMatchObject({ cohorts: 1, opened: 1 });
    const [alert] = await alertsOf(ann);
    expect(alert).toMatchObject({ rule: "flags", state: "open", level: 3, evidence: "3 flags", severity: "warning", year_start: "2025-08-01", raised_by_batch: batchIds[0], condition_ended_at: null });
    expect(await eventsOf(alert!.id)).toEqual(["opened:3"]);
    expect(await alertsOf(bob)).toEqual([]);
  });

  it("updates the same alert while the condition lasts: quietly at the same level, with 'escalated' when it worsens (state kept)", async () => {
    levels.set(ann, 2);
    await run();
    const [first] = await alertsOf(ann);
    await db().updateTable("alerts").set({ state: "acknowledged" }).where("id", "=", first!.id).execute();
    expect(await run()).toMatchObject({ opened: 0, escalated: 0 });
    levels.set(ann, 3);
    expect(await run()).toMatchObject({ opened: 0, escalated: 1, reopened: 0 });
    const after = await alertsOf(ann);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first!.id, level: 3, evidence: "3 flags", state: "acknowledged" });
    expect(await eventsOf(first!.id)).toEqual(["opened:2", "escalated:3"]);
  });

  it("keeps a resolved alert resolved while its condition holds, and reopens it only when it worsens past the resolved level", async () => {
    levels.set(ann, 3);
    await run();
    const [alert] = await alertsOf(ann);
    await db().updateTable("alerts").set({ state: "resolved", resolved_level: 3 }).where("id", "=", alert!.id).execute();
    await run();
    levels.set(ann, 2);
    await run();
    levels.set(ann, 3);
    expect(await run()).toMatchObject({ escalated: 1, reopened: 0 });
    expect((await alertsOf(ann))[0]).toMatchObject({ state: "resolved", level: 3 });
    levels.set(ann, 4);
    expect(await run()).toMatchObject({ escalated: 1, reopened: 1 });
    expect((await alertsOf(ann))[0]).toMatchObject({ state: "open", level: 4 });
    expect(await eventsOf(alert!.id)).toEqual(["opened:3", "escalated:3", "escalated:4", "reopened:4"]);
  });

  it("ends the episode when the condition is gone, and a later condition starts a new one", async () => {
    levels.set(ann, 2);
    await run();
    levels.delete(ann);
    expect(await run()).toMatchObject({ ended: 1 });
    const [ended] = await alertsOf(ann);
    expect(ended!.condition_ended_at).not.toBeNull();
    expect(await eventsOf(ended!.id)).toEqual(["opened:2", "condition_ended:2"]);
    levels.set(ann, 2);
    await run();
    const both = await alertsOf(ann);
    expect(both).toHaveLength(2);
    expect(both[1]).toMatchObject({ state: "open", condition_ended_at: null });
  });

  it("ends a disabled rule's episodes too (the verdict of a rule that is off is 'no condition')", async () => {
    levels.set(ann, 2);
    await run();
    await db()
      .insertInto("settings")
      .values({ key: "alert_rules", value: JSON.stringify({ rules: [{ rule: "flags", enabled: false, severity: "warning", params: { perWeek: 3, sameCodeWeeks: 2 } }] }) })
      .execute();
    try {
      expect(await run()).toMatchObject({ ended: 1, opened: 0 });
    } finally {
      await db().deleteFrom("settings").where("key", "=", "alert_rules").execute();
    }
  });

  it("takes the severity from the rule setting", async () => {
    await db()
      .insertInto("settings")
      .values({ key: "alert_rules", value: JSON.stringify({ rules: [{ rule: "flags", enabled: true, severity: "urgent", params: { perWeek: 3, sameCodeWeeks: 2 } }] }) })
      .execute();
    try {
      levels.set(ann, 2);
      await run();
      expect((await alertsOf(ann))[0]?.severity).toBe("urgent");
    } finally {
      await db().deleteFrom("settings").where("key", "=", "alert_rules").execute();
    }
  });

  it("starts new episodes at the programme-year boundary (1 August): last year's end, even a resolved one", async () => {
    expect(programmeYearStart("2026-07-31")).toBe("2025-08-01");
    expect(programmeYearStart("2026-08-01")).toBe("2026-08-01");
    levels.set(ann, 2);
    levels.set(bob, 2);
    await run({ now: new Date("2026-07-31T12:00:00Z") });
    const [bobs] = await alertsOf(bob);
    await db().updateTable("alerts").set({ state: "resolved", resolved_level: 2 }).where("id", "=", bobs!.id).execute();
    levels.delete(bob);
    levels.set(bob, 2);
    const result = await run({ now: new Date("2026-08-01T06:00:00Z") });
    expect(result).toMatchObject({ ended: 2, opened: 2 });
    for (const student of [ann, bob]) {
      const [old, current] = await alertsOf(student);
      expect(old).toMatchObject({ year_start: "2025-08-01" });
      expect(old!.condition_ended_at).not.toBeNull();
      expect(current).toMatchObject({ year_start: "2026-08-01", state: "open", condition_ended_at: null });
    }
  });

  it("on undo withdraws what only the batch raised: an untouched open alert goes, an acknowledged one stays marked 'data withdrawn'", async () => {
    const [earlier, undone] = batchIds as [number, number];
    const cleo = (await buildStudent(db(), { schoolId: null, cohortIds: [cohortId] })).id;
    levels.set(cleo, 2);
    await run({ batchId: earlier });
    levels.set(ann, 2);
    levels.set(bob, 2);
    await run({ batchId: undone });
    const [bobs] = await alertsOf(bob);
    await db().updateTable("alerts").set({ state: "acknowledged" }).where("id", "=", bobs!.id).execute();
    await db().insertInto("alert_events").values({ alert_id: bobs!.id, at: JULY, kind: "acknowledged", user_id: null, note: null, level: null }).execute();
    levels.clear();
    expect(await run({ undoneBatchId: undone })).toMatchObject({ withdrawn: 2, ended: 1 });
    expect(await alertsOf(ann)).toEqual([]);
    const [kept] = await alertsOf(bob);
    expect(kept).toMatchObject({ state: "acknowledged", data_withdrawn: true });
    expect(kept!.condition_ended_at).not.toBeNull();
    expect(await eventsOf(kept!.id)).toEqual(["opened:2", "acknowledged:null", "data_withdrawn:2"]);
    // Raised by an earlier batch: its condition simply ended.
    const [cleos] = await alertsOf(cleo);
    expect(cleos).toMatchObject({ data_withdrawn: false });
    expect(cleos!.condition_ended_at).not.toBeNull();
  });

  it("writes in slices: a cohort of more students than one statement's slice opens every alert", async () => {
    const many = await db()
      .insertInto("students")
      .values(Array.from({ length: 1100 }, (_, i) => ({ first_name: "Many", last_name: String(i), email: null, school_id: null })))
      .returning("id")
      .execute();
    await db().insertInto("student_cohorts").values(many.map((s) => ({ student_id: s.id, cohort_id: cohortId }))).execute();
    for (const s of many) levels.set(s.id, 1);
    const result = await run();
    expect(result.opened).toBe(1100);
    const events = await db().selectFrom("alert_events").innerJoin("alerts", "alerts.id", "alert_events.alert_id").select((eb) => eb.fn.countAll<number>().as("n")).where("alerts.cohort_id", "=", cohortId).executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(1100);
    for (const s of many) levels.set(s.id, 2);
    expect(await run()).toMatchObject({ escalated: 1100 });
    await db().deleteFrom("student_cohorts").where("student_id", "in", many.map((s) => s.id)).execute();
  });
});
