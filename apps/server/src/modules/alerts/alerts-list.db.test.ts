import { type AlertList, type AlertSummary, FEATURE_DEFAULTS, REPORT_MESSAGES, type StudentAccessLogResponse, type StudentAlerts } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAlert } from "../../../test/alert-factory.js";
import { type DashboardWorld, expectedVisible, useDashboardWorld, useDemoToggles, type WorldUserKey } from "../../../test/dashboard-world.js";
import { buildCohort, buildSchool, buildStudent, buildUser, setSetting } from "../../../test/factories.js";
import { loginAs } from "../../../test/test-app.js";
import { resolveScope } from "../scope/scope.js";
import * as repo from "./alerts-list.repository.js";
import { LIVE_STATES } from "./alerts-list.service.js";

const { t, w, as } = useDashboardWorld();

interface Made {
  id: number;
  studentId: number;
  schoolId: number | null;
  cohortId: number;
  studentCohortIds: number[];
}
const made: Made[] = [];

/** One live alert for every student and cohort of the world (oldest first, urgent every other). */
beforeAll(async () => {
  let day = 1;
  for (const student of Object.values(w.students)) {
    for (const cohortId of student.cohortIds) {
      const alert = await buildAlert(t.db, {
        studentId: student.id,
        cohortId,
        severity: day % 2 === 0 ? "urgent" : "warning",
        openedAt: new Date(Date.UTC(2025, 0, day++)),
      });
      made.push({ id: alert.id, studentId: student.id, schoolId: student.school_id, cohortId, studentCohortIds: student.cohortIds });
    }
  }
});

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

/** The alerts a user should see, worked out from the world's description (not from the server's scope code). */
function expectedAlertIds(world: DashboardWorld, user: WorldUserKey): number[] {
  const admin = user === "admin" || user === "superAdmin";
  const schools =
    user === "schoolA" ? [world.schools.a.id] : user === "schoolB" ? [world.schools.b.id] : user === "districtAB" ? [world.schools.a.id, world.schools.b.id] : user === "districtNone" ? [] : null;
  return made
    .filter((m) => {
      if (schools === null) {
        if (m.schoolId === world.schools.demo.id) return false;
      } else if (m.schoolId === null || !schools.includes(m.schoolId)) return false;
      const studentShown = m.studentCohortIds.some((c) => expectedVisible(world, c, m.schoolId, admin));
      return studentShown && expectedVisible(world, m.cohortId, m.schoolId, admin);
    })
    .map((m) => m.id)
    .sort((a, b) => a - b);
}

const ofStudent = (body: AlertList, id: number) => body.data.filter((a) => a.studentId === id).map((a) => a.cohortId);

describe("GET /api/alerts: the dashboards' scope", () => {
  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/alerts" })).statusCode).toBe(401);
  });

  it.each(["superAdmin", "admin", "districtAB", "districtNone", "schoolA", "schoolB"] as const)("lists exactly the alerts %s may see", async (user) => {
    const res = await get(user, "/api/alerts?pageSize=200");
    expect(res.statusCode).toBe(200);
    const body = res.json<AlertList>();
    expect(body.data.map((a) => a.id).sort((a, b) => a - b)).toEqual(expectedAlertIds(w, user));
    expect(body.total).toBe(expectedAlertIds(w, user).length);
  });

  it("keeps a hidden cohort's alerts and the demo school from the lists, as the dashboards do", async () => {
    const schoolA = (await get("schoolA", "/api/alerts?pageSize=200")).json<AlertList>();
    expect(ofStudent(schoolA, w.students.aAllHidden.id)).toEqual([]);
    expect(ofStudent(schoolA, w.students.aTwoCohorts.id)).toEqual([w.cohorts.open.id]);
    const admin = (await get("admin", "/api/alerts?pageSize=200")).json<AlertList>();
    expect(ofStudent(admin, w.students.aTwoCohorts.id).sort()).toEqual([w.cohorts.open.id, w.cohorts.hiddenAtA.id].sort());
    expect(ofStudent(admin, w.students.demo.id)).toEqual([]);
    // The demo dashboard (the demo school named alone) shows its alerts to an admin.
    const demo = (await get("admin", `/api/alerts?schoolId=${w.schools.demo.id}`)).json<AlertList>();
    expect(demo.data.map((a) => a.studentId)).toEqual([w.students.demo.id]);
    // A school user naming another school gets nothing of it.
    expect((await get("schoolA", `/api/alerts?schoolId=${w.schools.b.id}`)).json<AlertList>().total).toBe(0);
  });

  describe("with the demo opened to schools", () => {
    useDemoToggles(t, { schoolAccess: true });
    it("shows the demo school's alerts to a school user who names it", async () => {
      const body = (await get("schoolB", `/api/alerts?schoolId=${w.schools.demo.id}`)).json<AlertList>();
      expect(body.data.map((a) => a.studentId)).toEqual([w.students.demo.id]);
    });
  });

  it("names the student, school, cohort, newest team and assignee", async () => {
    const mover = made.find((m) => m.studentId === w.students.aMover.id);
    await t.db.updateTable("alerts").set({ assignee_id: w.users.schoolA.id }).where("id", "=", mover?.id ?? 0).execute();
    const body = (await get("schoolA", `/api/alerts?studentId=${w.students.aMover.id}`)).json<AlertList>();
    expect(body.data).toEqual([
      expect.objectContaining({
        studentName: "Ada Archer",
        schoolName: "Alder High",
        cohortName: "Spring Open",
        teamName: "Alder Hawks",
        assigneeId: w.users.schoolA.id,
        assigneeName: w.users.schoolA.username,
        rule: "consecutive_misses",
        state: "open",
        dataWithdrawn: false,
      }),
    ]);
    const mine = (await get("schoolA", "/api/alerts?assignedToMe=true")).json<AlertList>();
    expect(mine.data.map((a) => a.id)).toEqual([mover?.id]);
    expect((await get("districtAB", "/api/alerts?assignedToMe=true")).json<AlertList>().total).toBe(0);
  });
});

describe("GET /api/alerts: filters, order and pages", () => {
  it("puts urgent first, then the oldest episode", async () => {
    const body = (await get("admin", "/api/alerts?pageSize=200")).json<AlertList>();
    const keys = body.data.map((a) => [a.severity === "urgent" ? 0 : 1, a.since] as const);
    expect(keys).toEqual([...keys].sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1])));
    expect(new Set(keys.map((k) => k[0])).size).toBe(2);
  });

  it("pages through the same order, with the total on every page", async () => {
    const all = (await get("admin", "/api/alerts?pageSize=200")).json<AlertList>();
    const first = (await get("admin", "/api/alerts?pageSize=3&page=1")).json<AlertList>();
    const second = (await get("admin", "/api/alerts?pageSize=3&page=2")).json<AlertList>();
    expect([...first.data, ...second.data].map((a) => a.id)).toEqual(all.data.slice(0, 6).map((a) => a.id));
    expect(first.total).toBe(all.total);
    const past = (await get("admin", "/api/alerts?pageSize=3&page=999")).json<AlertList>();
    expect(past).toEqual({ data: [], total: all.total });
  });

  it("answers the same page as rows or as one JSON text (each engine uses one: listAnswerFor)", async () => {
    const scope = await resolveScope(t.db, { role: "admin", accessibleSchoolIds: "all" });
    for (const page of [
      { offset: 0, limit: 200 },
      { offset: 2, limit: 3 },
      { offset: 999, limit: 3 },
    ]) {
      const filters = { states: LIVE_STATES };
      const asRows = await repo.listAlerts(t.db, scope, filters, page, "rows");
      const asJson = await repo.listAlerts(t.db, scope, filters, page, "json");
      expect(asJson).toEqual(asRows);
      expect(asRows.total).toBe(expectedAlertIds(w, "admin").length);
    }
    const whole = await repo.listAlerts(t.db, scope, { states: LIVE_STATES }, { offset: 0, limit: 200 }, "json");
    expect(whole.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(expectedAlertIds(w, "admin"));
    expect(whole.rows[0]?.opened_at).toBeInstanceOf(Date);
    expect(typeof whole.rows[0]?.details).toBe("object");
  });

  it("filters by severity, rule, cohort and student", async () => {
    const urgent = (await get("admin", "/api/alerts?severity=urgent&pageSize=200")).json<AlertList>();
    expect(urgent.data.length).toBeGreaterThan(0);
    expect(urgent.data.every((a) => a.severity === "urgent")).toBe(true);
    expect((await get("admin", "/api/alerts?rule=flags")).json<AlertList>().total).toBe(0);
    const cohort = (await get("admin", `/api/alerts?cohortId=${w.cohorts.shownAtB.id}`)).json<AlertList>();
    expect(cohort.data.map((a) => a.studentId).sort()).toEqual([w.students.bShown.id, w.students.cShownAtB.id].sort());
    const student = (await get("admin", `/api/alerts?studentId=${w.students.bOpen.id}`)).json<AlertList>();
    expect(student.total).toBe(2);
  });

  it("shows live open and acknowledged episodes by default; resolved and ended ones when asked", async () => {
    const student = await buildStudent(t.db, { schoolId: w.schools.c.id, cohortIds: [w.cohorts.open.id] });
    const ended = await buildAlert(t.db, { studentId: student.id, cohortId: w.cohorts.open.id, rule: "flags", conditionEndedAt: "2025-02-01T00:00:00Z" });
    const resolved = await buildAlert(t.db, { studentId: student.id, cohortId: w.cohorts.open.id, rule: "low_hours", state: "resolved", conditionEndedAt: "2025-02-01T00:00:00Z" });
    const acknowledged = await buildAlert(t.db, { studentId: student.id, cohortId: w.cohorts.open.id, rule: "attendance_band", state: "acknowledged" });
    const ids = async (query: string) => (await get("admin", `/api/alerts?studentId=${student.id}${query}`)).json<AlertList>().data.map((a) => a.id).sort();
    expect(await ids("")).toEqual([acknowledged.id]);
    expect(await ids("&state=resolved")).toEqual([resolved.id]);
    expect(await ids("&state=open,resolved")).toEqual([resolved.id]);
    // An open episode whose condition ended is history: never in the list.
    expect(await ids("&state=open")).toEqual([]);
    expect(await ids("&state=open,acknowledged,resolved,dismissed")).not.toContain(ended.id);
  });

  it("refuses a bad filter with a 400 naming it", async () => {
    for (const [query, field] of [["state=closed", "state"], ["severity=high", "severity"], ["rule=nope", "rule"], ["pageSize=500", "pageSize"], ["assignedToMe=yes", "assignedToMe"]]) {
      const res = await get("admin", `/api/alerts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toContain(field);
    }
  });
});

describe("GET /api/alerts/summary", () => {
  it("counts by state and severity in the caller's scope, with the students", async () => {
    const res = await get("schoolA", "/api/alerts/summary");
    expect(res.statusCode).toBe(200);
    const body = res.json<AlertSummary>();
    const list = (await get("schoolA", "/api/alerts?pageSize=200")).json<AlertList>();
    expect(body.total).toBe(list.total);
    expect(body.bySeverity.urgent + body.bySeverity.warning + body.bySeverity.info).toBe(list.total);
    expect(body.byState.open + body.byState.acknowledged).toBe(list.total);
    expect(body.studentIds).toEqual([...new Set(list.data.map((a) => a.studentId))].sort((a, b) => a - b));
    const none = (await get("districtNone", "/api/alerts/summary")).json<AlertSummary>();
    expect(none).toEqual({ byState: { open: 0, acknowledged: 0, resolved: 0, dismissed: 0 }, bySeverity: { urgent: 0, warning: 0, info: 0 }, total: 0, studentIds: [] });
  });

  it("takes the list's filters", async () => {
    const urgent = (await get("admin", "/api/alerts/summary?severity=urgent")).json<AlertSummary>();
    expect(urgent.bySeverity.warning).toBe(0);
    expect(urgent.total).toBe((await get("admin", "/api/alerts?severity=urgent")).json<AlertList>().total);
  });
});

describe("GET /api/alerts.csv", () => {
  it("downloads the list as a dated, formula-safe CSV", async () => {
    const school = await buildSchool(t.db, { name: "=HYPERLINK(\"http://evil\")" });
    const cohort = await buildCohort(t.db, { name: "+Cohort" });
    const student = await buildStudent(t.db, { schoolId: school.id, firstName: "@Ann", lastName: "-Lee", cohortIds: [cohort.id] });
    await buildAlert(t.db, { studentId: student.id, cohortId: cohort.id, evidence: "=1+1, missed 2" });
    const user = await buildUser(t.db, { role: "school_user", schoolId: school.id });
    const { headers } = await loginAs(t.app, user);
    const res = await t.app.inject({ method: "GET", url: "/api/alerts.csv", headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="alerts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("Student");
    expect(lines[1]).toContain("'@Ann -Lee");
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toContain("'+Cohort");
    expect(lines[1]).toContain(`"'=1+1, missed 2"`);
    expect(lines[1]).toContain("Consecutive misses");
  });

  it("keeps to the caller's scope", async () => {
    const res = await get("schoolB", "/api/alerts.csv");
    const rows = res.body.replace(/^\uFEFF/, "").trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(expectedAlertIds(w, "schoolB").length);
    expect(res.body).not.toContain("Ada Archer");
  });

  it("goes into the access record: each student the file sent, as a csv by its downloader", async () => {
    const student = made.find((m) => m.schoolId === w.schools.b.id)?.studentId ?? 0;
    expect((await get("schoolB", "/api/alerts.csv")).statusCode).toBe(200);
    const log = (await get("admin", `/api/students/${student}/access-log?userId=${w.users.schoolB.id}`)).json<StudentAccessLogResponse>();
    expect(log.data.map((e) => e.action)).toContain("csv");
  });

  describe("with export off at the first school only", () => {
    beforeAll(() =>
      setSetting(t.db, "features", {
        ...FEATURE_DEFAULTS,
        applyToAllSchools: false,
        schoolSettings: { [String(w.schools.a.id)]: { enableExport: false, enableStudentEditing: true } },
      }),
    );
    afterAll(() => t.db.deleteFrom("settings").where("key", "=", "features").execute());

    it("refuses its school user and a district user whose file would cover it, as the reports' CSV does", async () => {
      for (const [user, url, message] of [
        ["schoolA", "/api/alerts.csv", REPORT_MESSAGES.exportOffSchool],
        ["districtAB", "/api/alerts.csv", REPORT_MESSAGES.exportOffDistrict],
        ["districtAB", `/api/alerts.csv?schoolId=${w.schools.a.id}`, REPORT_MESSAGES.exportOffDistrict],
      ] as const) {
        const res = await get(user, url);
        expect(res.statusCode, `${user} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: message, code: "FORBIDDEN" });
      }
    });

    it("lets the other school's users and admins download, and the list itself stays readable", async () => {
      expect((await get("schoolB", "/api/alerts.csv")).statusCode).toBe(200);
      expect((await get("districtAB", `/api/alerts.csv?schoolId=${w.schools.b.id}`)).statusCode).toBe(200);
      expect((await get("admin", "/api/alerts.csv")).statusCode).toBe(200);
      expect((await get("schoolA", "/api/alerts")).statusCode).toBe(200);
    });
  });
});

describe("GET /api/students/:id/alerts", () => {
  it("gives a student's alerts with their timelines and the weeks of the notes", async () => {
    const alert = made.find((m) => m.studentId === w.students.aMover.id);
    await t.db
      .insertInto("alert_events")
      .values([
        { alert_id: alert?.id ?? 0, at: new Date("2025-01-20T09:00:00Z"), kind: "opened", user_id: null, note: null, level: 2 },
        // Spring Open starts 2025-01-06: the 22nd is in its week 3.
        { alert_id: alert?.id ?? 0, at: new Date("2025-01-22T09:00:00Z"), kind: "resolved", user_id: w.users.schoolA.id, note: "Called home", level: 2 },
      ])
      .execute();
    const res = await get("schoolA", `/api/students/${w.students.aMover.id}/alerts`);
    expect(res.statusCode).toBe(200);
    const body = res.json<StudentAlerts>();
    expect(body.data.map((a) => a.id)).toEqual([alert?.id]);
    expect(body.data[0]?.timeline).toEqual([
      { at: "2025-01-20T09:00:00.000Z", kind: "opened", userId: null, userName: null, note: null },
      { at: "2025-01-22T09:00:00.000Z", kind: "resolved", userId: w.users.schoolA.id, userName: w.users.schoolA.username, note: "Called home" },
    ]);
    expect(body.noteWeeks).toEqual([{ cohortId: w.cohorts.open.id, week: 3, at: "2025-01-22T09:00:00.000Z" }]);
    const log = (await get("admin", `/api/students/${w.students.aMover.id}/access-log?userId=${w.users.schoolA.id}`)).json<StudentAccessLogResponse>();
    expect(log.data.map((e) => e.action)).toContain("view");
  });

  it("is a 404 out of scope, as for an unknown student", async () => {
    const other = await get("schoolA", `/api/students/${w.students.bOpen.id}/alerts`);
    const unknown = await get("schoolA", "/api/students/2147483000/alerts");
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(other.json()).toEqual(unknown.json());
    expect((await get("schoolA", `/api/students/${w.students.aAllHidden.id}/alerts`)).statusCode).toBe(404);
  });

  it("leaves out the alerts of a hidden cohort", async () => {
    const body = (await get("schoolA", `/api/students/${w.students.aTwoCohorts.id}/alerts`)).json<StudentAlerts>();
    expect(body.data.map((a) => a.cohortId)).toEqual([w.cohorts.open.id]);
  });
});

describe("an alert's school (migration 027)", () => {
  it("is its student's school, and follows the student who moves to another school", async () => {
    const cohort = await buildCohort(t.db, {});
    const student = await buildStudent(t.db, { schoolId: w.schools.b.id, cohortIds: [cohort.id] });
    const alert = await buildAlert(t.db, { studentId: student.id, cohortId: cohort.id });
    const seenBy = async (user: WorldUserKey) => (await get(user, `/api/alerts?studentId=${student.id}`)).json<AlertList>().data.map((a) => a.id);
    try {
      expect(await seenBy("schoolB")).toEqual([alert.id]);
      expect(await seenBy("schoolA")).toEqual([]);
      await t.db.updateTable("students").set({ school_id: w.schools.a.id }).where("id", "=", student.id).execute();
      expect(await seenBy("schoolA")).toEqual([alert.id]);
      expect(await seenBy("schoolB")).toEqual([]);
      const row = await t.db.selectFrom("alerts").select("school_id").where("id", "=", alert.id).executeTakeFirstOrThrow();
      expect(row.school_id).toBe(w.schools.a.id);
    } finally {
      await t.db.deleteFrom("students").where("id", "=", student.id).execute();
    }
  });
});
