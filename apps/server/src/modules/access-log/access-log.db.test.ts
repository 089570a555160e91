import type { AccessLogResponse, StudentAccessLogResponse } from "@tally/contract";
import { describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { BULK_STUDENTS, useReportWorld } from "../../../test/report-world.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { createTestApp } from "../../../test/test-app.js";
import { recordAccess } from "./access-log.service.js";

const smtp = useSmtpTestServer();
const { t, w, as, extra } = useReportWorld({ mailer: { kind: "smtp", send: (m) => smtp.mailer.send(m) } });

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

/** The whole record (super admin), filtered by the query. */
async function accessLog(query: string): Promise<AccessLogResponse> {
  const res = await get("superAdmin", `/api/access-log?limit=1000&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("the record of access: reads of one student's records", () => {
  it("records the detail, the attendance and the weekly data, each as a view by that user from that address", async () => {
    const student = w.students.aMover.id;
    const user = w.users.schoolA;
    for (const url of [`/api/students/${student}`, `/api/attendance/student/${student}`, `/api/weekly-data/${student}`]) {
      const before = (await accessLog(`studentId=${student}&userId=${user.id}`)).total;
      const res = await get("schoolA", url);
      expect(res.statusCode, url).toBe(200);
      const after = await accessLog(`studentId=${student}&userId=${user.id}`);
      expect(after.total, url).toBe(before + 1);
      expect(after.data[0]).toMatchObject({ userId: user.id, username: user.username, role: "school_user", action: "view", studentId: student, address: "127.0.0.1" });
      expect(after.data[0]).not.toHaveProperty("recipient");
      expect(Date.now() - Date.parse(after.data[0]?.at ?? "")).toBeLessThan(60_000);
    }
  });

  it("records nothing for a read refused (another school's student is a 404)", async () => {
    const student = w.students.bOpen.id;
    const before = (await accessLog(`studentId=${student}`)).total;
    expect((await get("schoolA", `/api/students/${student}`)).statusCode).toBe(404);
    expect((await accessLog(`studentId=${student}`)).total).toBe(before);
  });

  // Issue 41: a students page now records the students it returned (exports/export-gate.db.test.ts).
  it("records nothing for the dashboard's counts and filter lists", async () => {
    const { total } = await accessLog(`userId=${w.users.districtAB.id}`);
    for (const url of [
      "/api/students/summary",
      "/api/attendance/cohort-trends",
      "/api/cohorts",
      "/api/teams",
    ]) {
      expect((await get("districtAB", url)).statusCode, url).toBe(200);
    }
    expect((await accessLog(`userId=${w.users.districtAB.id}`)).total).toBe(total);
  });
});

describe("the record of access: exports naming students", () => {
  it("records every student of the CSV, as one csv export", async () => {
    const before = (await accessLog(`userId=${w.users.admin.id}&action=csv`)).total;
    const res = await get("admin", `/api/reports/students.csv?schoolId=${w.schools.c.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const rowsInFile = res.body.trim().split("\n").length - 1;
    const after = await accessLog(`userId=${w.users.admin.id}&action=csv`);
    expect(after.total - before).toBe(rowsInFile);
    expect(rowsInFile).toBeGreaterThanOrEqual(BULK_STUDENTS);
    const ids = new Set(after.data.slice(0, rowsInFile).map((r) => r.studentId));
    for (const s of extra.bulk) expect(ids.has(s.id)).toBe(true);
  });

  it("records the students a PDF names, and none for a PDF without the student table", async () => {
    const before = (await accessLog(`userId=${w.users.admin.id}&action=pdf`)).total;
    const none = await get("admin", `/api/pdf-reports/generate?schoolId=${w.schools.a.id}&includeStudents=false`);
    expect(none.statusCode).toBe(200);
    expect((await accessLog(`userId=${w.users.admin.id}&action=pdf`)).total).toBe(before);
    const res = await get("admin", `/api/pdf-reports/generate?schoolId=${w.schools.a.id}&cohortId=${w.cohorts.open.id}&teamId=${w.teams.a2.id}`);
    expect(res.statusCode).toBe(200);
    const after = await accessLog(`userId=${w.users.admin.id}&action=pdf`);
    const named = after.data.slice(0, after.total - before).map((r) => r.studentId);
    for (const s of extra.unicode) expect(named).toContain(s.id);
    expect(named).not.toContain(w.students.bOpen.id);
  });

  it("records an e-mailed report with its recipients", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/email/send-report",
      headers: as.admin,
      payload: { recipient: "funder@example.test", cc: ["board@example.test"], subject: "Report", content: "", schoolId: w.schools.a.id, cohortId: w.cohorts.open.id, teamId: w.teams.a2.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const log = await accessLog(`userId=${w.users.admin.id}&action=email`);
    expect(log.total).toBeGreaterThanOrEqual(extra.unicode.length);
    expect(log.data[0]).toMatchObject({ action: "email", recipient: "funder@example.test, board@example.test" });
    expect(log.data.map((r) => r.studentId)).toEqual(expect.arrayContaining(extra.unicode.map((s) => s.id)));
  });
});

describe("GET /api/students/:id/access-log", () => {
  it("answers one student's record newest first, with the issue's fields only", async () => {
    const student = w.students.aTwoCohorts.id;
    await get("schoolA", `/api/students/${student}`);
    await get("districtAB", `/api/weekly-data/${student}`);
    const res = await get("admin", `/api/students/${student}/access-log`);
    expect(res.statusCode, res.body).toBe(200);
    const body: StudentAccessLogResponse = res.json();
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.data[0]).toEqual({ at: expect.any(String), userId: w.users.districtAB.id, username: w.users.districtAB.username, role: "district_user", address: "127.0.0.1", action: "view" });
    expect(body.data[1]?.userId).toBe(w.users.schoolA.id);
    const byUser = (await get("admin", `/api/students/${student}/access-log?userId=${w.users.schoolA.id}`)).json() as StudentAccessLogResponse;
    expect(byUser.data.every((r) => r.userId === w.users.schoolA.id)).toBe(true);
  });

  it("filters by days: none before today, all of today's", async () => {
    const student = w.students.aTwoCohorts.id;
    const today = new Date().toISOString().slice(0, 10);
    const all = ((await get("admin", `/api/students/${student}/access-log`)).json() as StudentAccessLogResponse).total;
    expect(((await get("admin", `/api/students/${student}/access-log?from=${today}&to=${today}`)).json() as StudentAccessLogResponse).total).toBe(all);
    expect(((await get("admin", `/api/students/${student}/access-log?to=2020-01-01`)).json() as StudentAccessLogResponse).total).toBe(0);
    const bad = await get("admin", `/api/students/${student}/access-log?from=2026-02-01&to=2026-01-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("end date");
  });

  it("is for admins within scope: 401 without a token, 403 for school users, 404 for a student that does not exist", async () => {
    const student = w.students.aMover.id;
    expect((await t.app.inject({ method: "GET", url: `/api/students/${student}/access-log` })).statusCode).toBe(401);
    expect((await get("schoolA", `/api/students/${student}/access-log`)).statusCode).toBe(403);
    expect((await get("districtAB", `/api/students/${student}/access-log`)).statusCode).toBe(403);
    expect((await get("admin", "/api/students/999999/access-log")).statusCode).toBe(404);
  });
});

describe("GET /api/access-log", () => {
  it("is the super admin's alone", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/access-log" })).statusCode).toBe(401);
    expect((await get("admin", "/api/access-log")).statusCode).toBe(403);
    expect((await get("schoolA", "/api/access-log")).statusCode).toBe(403);
  });

  it("names a bad filter", async () => {
    const res = await get("superAdmin", "/api/access-log?studentId=abc");
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("studentId");
  });
});

describe("the recorder", () => {
  it("writes what is buffered when the app closes cleanly", async () => {
    const other = await createTestApp({ database: t.database });
    recordAccess(other.ctx, { id: 424_242, username: "closing", role: "admin" }, { action: "view", studentIds: [w.students.cOpen.id] });
    const none = await t.db.selectFrom("access_log").select("id").where("user_id", "=", 424_242).execute();
    expect(none).toHaveLength(0);
    await other.app.close();
    const rows = await t.db.selectFrom("access_log").selectAll().where("user_id", "=", 424_242).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: "closing", action: "view", student_id: w.students.cOpen.id });
  });
});
