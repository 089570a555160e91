import { DEMO_SCHOOL_ID, type ErasureCounts, RETENTION_MESSAGES, type RetentionPreview } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsNaming, rowsWithStudentId } from "../../../test/erasure-checks.js";
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
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { createTestApp, loginAs, type TestApp, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { accessRecorder } from "../access-log/access-log.service.js";
import { ERASURE_BATCH } from "./erasure.service.js";
import { RETENTION_JOB, retentionCutoff, runNightlyRetention } from "./retention.service.js";

// Today 2025-02-10: with 3 years, a last cohort ending before 2022-02-10 has expired; with 2, before 2023-02-10.
const clock = manualClock(new Date("2025-02-10T12:00:00Z"));
const t = useTestApp({ clock });
const headers = { admin: { authorization: "" }, school: { authorization: "" } };
let schoolId = 0;
const cohorts = { ancient: 0, old: 0, recent: 0, running: 0 };
const students: Record<"ancient" | "old" | "recent" | "returned" | "none" | "demo", BuiltStudent> = {} as never;
let team = 0;

async function studentWithRecords(name: string, cohortIds: number[], opts: { teamId?: number; school?: number } = {}): Promise<BuiltStudent> {
  const school = opts.school ?? schoolId;
  const student = await buildStudent(t.db, { schoolId: school, firstName: `${name}ine`, lastName: `${name}feather`, cohortIds, teams: opts.teamId ? [opts.teamId] : [] });
  const cohortId = cohortIds[0];
  if (cohortId !== undefined) {
    await buildAttendance(t.db, [1, 2].map((weekNumber) => ({ studentId: student.id, cohortId, schoolId: school, teamId: opts.teamId ?? 0, weekNumber, meetingType: "advisor" as const, status: "present" as const })));
    await buildWeeklyData(t.db, [{ studentId: student.id, cohortId, weekNumber: 1, reflection: `${name} reflected`, advisorNotes: `Note on ${name}` }]);
  }
  return student;
}

beforeAll(async () => {
  schoolId = (await buildSchool(t.db)).id;
  cohorts.ancient = (await buildCohort(t.db, { name: "Ancient", startDate: "2020-05-04", endDate: "2020-06-26" })).id;
  cohorts.old = (await buildCohort(t.db, { name: "Old", startDate: "2021-10-04", endDate: "2021-11-26" })).id;
  cohorts.recent = (await buildCohort(t.db, { name: "Recent", startDate: "2022-11-07", endDate: "2022-12-16" })).id;
  cohorts.running = (await buildCohort(t.db, { name: "Running", startDate: "2025-01-06", endDate: "2025-03-28" })).id;
  team = (await buildTeam(t.db, { schoolId, cohortId: cohorts.old })).id;
  students.ancient = await studentWithRecords("Ancient", [cohorts.ancient]);
  students.old = await studentWithRecords("Oldie", [cohorts.old], { teamId: team });
  students.recent = await studentWithRecords("Recent", [cohorts.recent]);
  // An old cohort, then a running one: the last cohort has not ended.
  students.returned = await studentWithRecords("Returned", [cohorts.ancient, cohorts.running]);
  students.none = await studentWithRecords("Cohortless", []);
  const demo = await buildSchoolWithId(t.db, DEMO_SCHOOL_ID, "Demo School");
  students.demo = await studentWithRecords("Demonstrated", [cohorts.ancient], { school: demo.id });
  headers.admin.authorization = (await loginAs(t.app, await buildUser(t.db, { role: "admin" }))).headers.authorization;
  headers.school.authorization = (await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId }))).headers.authorization;
});

const preview = (query = "", who: keyof typeof headers = "admin") =>
  t.app.inject({ method: "GET", url: `/api/settings/privacy/retention-preview${query}`, headers: headers[who] });
const runNow = (who: keyof typeof headers = "admin") => t.app.inject({ method: "POST", url: "/api/settings/privacy/retention-run", headers: headers[who] });
const savePrivacy = (retentionYears: number | null) =>
  t.app.inject({ method: "PUT", url: "/api/settings/privacy", headers: headers.admin, payload: { retentionYears, bulkExportThreshold: 500, blockOnAlarm: false } });
const remaining = async () => (await t.db.selectFrom("students").select("id").execute()).map((r) => r.id);
const retentionAudits = () => t.db.selectFrom("audit_log").select(["after", "actor_id"]).where("action", "=", "privacy.retention.run").execute();

describe("retention while off (the default)", () => {
  it("previews nothing for the saved setting, refuses a run now (409), and the night runs nothing", async () => {
    const before = await remaining();
    expect((await preview()).json()).toEqual({ students: 0, names: [] });
    const refused = await runNow();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(RETENTION_MESSAGES.off);
    expect(await runNightlyRetention(t.ctx, "2025-02-10")).toBeNull();
    expect(await t.db.selectFrom("scheduled_runs").selectAll().execute()).toEqual([]);
    expect(await remaining()).toEqual(before);
    expect(await retentionAudits()).toEqual([]);
  });

  it("previews a number of years before it is switched on; a bad one is a 400 naming it; admins only", async () => {
    expect((await preview("?years=3")).json()).toEqual({ students: 2, names: ["Ancientine Ancientfeather", "Oldieine Oldiefeather"] });
    expect((await preview("?years=2")).json<RetentionPreview>().names).toEqual(["Ancientine Ancientfeather", "Oldieine Oldiefeather", "Recentine Recentfeather"]);
    expect((await preview("?years=5")).json()).toEqual({ students: 0, names: [] });
    for (const bad of ["0", "51", "2.5", "three"]) {
      const res = await preview(`?years=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.body).toContain("years");
    }
    expect((await preview("?years=3", "school")).statusCode).toBe(403);
    expect((await runNow("school")).statusCode).toBe(403);
  });
});

describe("retention switched on", () => {
  it("cuts off whole years back from today", () => {
    expect(retentionCutoff(new Date("2025-02-10T12:00:00Z"), 3)).toBe("2022-02-10");
    expect(retentionCutoff(new Date("2024-02-29T12:00:00Z"), 1)).toBe("2023-03-01");
  });

  it("run now removes exactly what the preview named, every row naming them, keeps rollups exact and audits the counts", async () => {
    // A read of the student, kept in the record of access (the id only remains).
    expect((await t.app.inject({ method: "GET", url: `/api/students/${students.old.id}`, headers: headers.school })).statusCode).toBe(200);
    await accessRecorder(t.ctx).flush();
    expect((await savePrivacy(3)).statusCode).toBe(200);
    const shown = (await preview()).json<RetentionPreview>();
    expect(shown).toEqual({ students: 2, names: ["Ancientine Ancientfeather", "Oldieine Oldiefeather"] });
    const before = await remaining();

    const res = await runNow();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ErasureCounts>()).toEqual({ students: 2, attendance: 4, weeklyData: 2, cohorts: 2, teams: 1 });
    const after = await remaining();
    expect(before.filter((id) => !after.includes(id)).sort()).toEqual([students.ancient.id, students.old.id].sort());
    for (const s of [students.ancient, students.old]) expect(await rowsWithStudentId(t.db, s.id)).toEqual({});
    for (const needle of ["Ancientfeather", "Oldiefeather", "Ancient reflected", "Note on Oldie"]) expect(await rowsNaming(t.db, needle)).toEqual({});
    expect(await t.db.selectFrom("access_log").select("student_id").where("student_id", "=", students.old.id).execute()).toHaveLength(1);
    for (const s of [students.recent, students.returned, students.none, students.demo]) expect(after).toContain(s.id);
    await expectRollupsMatchRecount(t.db);

    const audits = await retentionAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]?.after).toEqual({ trigger: "manual", retentionYears: 3, cutoff: "2022-02-10", students: 2, attendance: 4, weeklyData: 2, cohorts: 2, teams: 1 });
    expect((await preview()).json()).toEqual({ students: 0, names: [] });
  });

  it("goes through more students than one batch holds, every batch, and the rollups stay exact", async () => {
    // ERASURE_BATCH + 5 students of one long-ended cohort, inserted in one statement each.
    const many = (await buildCohort(t.db, { name: "Many", startDate: "2019-01-07", endDate: "2019-02-15" })).id;
    const ids = (
      await t.db
        .insertInto("students")
        .values(Array.from({ length: ERASURE_BATCH + 5 }, (_, i) => ({ first_name: `Bulk${i}`, last_name: "Batchling", email: null, school_id: schoolId })))
        .returning("id")
        .execute()
    ).map((r) => r.id);
    await t.db.insertInto("student_cohorts").values(ids.map((student_id) => ({ student_id, cohort_id: many }))).execute();
    expect((await preview("?years=3")).json<RetentionPreview>().students).toBe(ERASURE_BATCH + 5);

    const res = await runNow();
    expect(res.json<ErasureCounts>()).toMatchObject({ students: ERASURE_BATCH + 5, cohorts: ERASURE_BATCH + 5 });
    expect(await t.db.selectFrom("students").select("id").where("id", "in", ids).execute()).toEqual([]);
    await expectRollupsMatchRecount(t.db);
  });

  describe("the nightly run, two app instances on one database", () => {
    let second: TestApp;
    beforeAll(async () => {
      second = await createTestApp({ database: t.database, clock });
    });
    afterAll(() => second.close());

    it("runs once for the night however many instances trigger it, and removes what the preview named", async () => {
      expect((await savePrivacy(2)).statusCode).toBe(200);
      const shown = (await preview()).json<RetentionPreview>();
      expect(shown).toEqual({ students: 1, names: ["Recentine Recentfeather"] });
      const before = await remaining();

      const runs = await Promise.all([runNightlyRetention(t.ctx, "2025-02-11"), runNightlyRetention(second.ctx, "2025-02-11")]);
      expect(runs.filter((r) => r !== null)).toEqual([{ students: 1, attendance: 2, weeklyData: 1, cohorts: 1, teams: 0 }]);
      // The same night again (a restarted instance): nothing.
      expect(await runNightlyRetention(second.ctx, "2025-02-11")).toBeNull();
      expect(await t.db.selectFrom("scheduled_runs").select("job").where("job", "=", RETENTION_JOB).execute()).toHaveLength(1);

      const after = await remaining();
      expect(before.filter((id) => !after.includes(id))).toEqual([students.recent.id]);
      expect(await rowsNaming(t.db, "Recentfeather")).toEqual({});
      await expectRollupsMatchRecount(t.db);
      const nightly = (await retentionAudits()).filter((a) => (a.after as { trigger: string }).trigger === "nightly");
      expect(nightly).toEqual([{ actor_id: null, after: { trigger: "nightly", retentionYears: 2, cutoff: "2023-02-10", students: 1, attendance: 2, weeklyData: 1, cohorts: 1, teams: 0 } }]);
    });
  });
});
