import { type AccessLogResponse, FEATURE_DEFAULTS, FULL_EXPORTS_ALARM, LIMITS, PRIVACY_MESSAGES, REPORT_MESSAGES, type ReportDataResponse, type StudentsResponse } from "@tally/contract";
import { afterEach, describe, expect, it } from "vitest";
import { buildUser, setSetting } from "../../../test/factories.js";
import { useReportWorld } from "../../../test/report-world.js";
import { loginAs } from "../../../test/test-app.js";
import { listChanges } from "../audit/audit.service.js";

// Issue 41: every export and bulk read goes through one gate (modules/exports): the school's
// export setting, the bulk-export alarm's block, the download claim taken atomically before the
// answer, the audit row, the record of access of what was sent.

const { t, w, as } = useReportWorld();

/** A fresh account, so one test's exports and alarms never count in another's. */
async function freshUser(role: "school_user" | "district_user" = "school_user") {
  const user = await buildUser(t.db, role === "school_user" ? { role, schoolId: w.schools.a.id } : { role, schoolIds: [w.schools.a.id, w.schools.b.id] });
  return { user, headers: (await loginAs(t.app, user)).headers };
}
const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: "GET", url, headers });
async function accessLog(query: string): Promise<AccessLogResponse> {
  const res = await get(as.superAdmin, `/api/access-log?limit=1000&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const setPrivacy = (value: { bulkExportThreshold: number; blockOnAlarm: boolean }) => setSetting(t.db, "privacy", { retentionYears: null, ...value });
const exportOff = () => setSetting(t.db, "features", { ...FEATURE_DEFAULTS, enableExport: false, applyToAllSchools: true });

afterEach(async () => {
  await t.db.deleteFrom("settings").where("key", "in", ["features", "privacy"]).execute();
});

describe("GET /api/reports/data is an export", () => {
  it("is refused (403, the spec's reason) while the school's export setting is off", async () => {
    const { headers } = await freshUser();
    await exportOff();
    const res = await get(headers, "/api/reports/data");
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: REPORT_MESSAGES.exportOffSchool, code: "FORBIDDEN" });
  });

  it("is refused (403) while the bulk-export alarm blocks the user's exports, like the CSV", async () => {
    const { user, headers } = await freshUser();
    await setPrivacy({ bulkExportThreshold: 500, blockOnAlarm: true });
    await t.db.insertInto("access_alarms").values({ user_id: user.id, raised_at: new Date(), students: 900 }).execute();
    for (const url of ["/api/reports/data", "/api/reports/data?simplified=true", "/api/reports/students.csv"]) {
      const res = await get(headers, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe(PRIVACY_MESSAGES.exportsBlocked);
    }
  });

  it("answers when allowed, recording every student it returned (read as data) and an audit row", async () => {
    const { user, headers } = await freshUser("district_user");
    const res = await get(headers, `/api/reports/data?schoolId=${w.schools.a.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const { students } = res.json<ReportDataResponse>();
    expect(students.length).toBeGreaterThan(0);
    const record = await accessLog(`userId=${user.id}`);
    expect(record.data.every((e) => e.action === "data")).toBe(true);
    expect(record.data.map((e) => e.studentId).sort((a, b) => a - b)).toEqual(students.map((s) => s.id).sort((a, b) => a - b));
    const audit = (await listChanges(t.db, { entity: "student_data" })).filter((r) => r.actor_id === user.id);
    expect(audit.map((r) => r.action)).toEqual(["export.data"]);
  });
});

describe("GET /api/students: a page is a view, a bulk page an export", () => {
  it("records every student of a dashboard page as viewed, with the export setting off too", async () => {
    const { user, headers } = await freshUser("district_user");
    await exportOff();
    const res = await get(headers, "/api/students?limit=24");
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<StudentsResponse>();
    expect(page.data.length).toBeGreaterThan(0);
    const record = await accessLog(`userId=${user.id}`);
    expect(record.data.every((e) => e.action === "view")).toBe(true);
    expect(record.data.map((e) => e.studentId).sort((a, b) => a - b)).toEqual(page.data.map((s) => s.id).sort((a, b) => a - b));
  });

  it("sends a page larger than a view through the gate: refused while export is off, else recorded as read as data", async () => {
    const { user, headers } = await freshUser();
    const bulk = `/api/students?limit=${LIMITS.studentsViewPageSize + 1}`;
    await exportOff();
    // The spec's default page (1000) is a bulk read too.
    for (const url of [bulk, "/api/students"]) {
      const refused = await get(headers, url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error).toBe(REPORT_MESSAGES.exportOffSchool);
    }
    expect((await get(headers, `/api/students?limit=${LIMITS.studentsViewPageSize}`)).statusCode).toBe(200);
    await t.db.deleteFrom("settings").where("key", "=", "features").execute();
    const res = await get(headers, bulk);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json<StudentsResponse>().data.map((s) => s.id);
    const asData = await accessLog(`userId=${user.id}&action=data`);
    expect(asData.data.map((e) => e.studentId).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });
});

describe("parallel exports and the alarm's full exports", () => {
  it(`lets exactly ${FULL_EXPORTS_ALARM} of 12 parallel full CSV exports through when the alarm blocks; the rest are refused`, async () => {
    const { headers } = await freshUser();
    await setPrivacy({ bulkExportThreshold: 1_000_000, blockOnAlarm: true });
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(headers, "/api/reports/students.csv")));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(FULL_EXPORTS_ALARM);
    expect(statuses.filter((s) => s === 403)).toHaveLength(12 - FULL_EXPORTS_ALARM);
    for (const refused of answers.filter((r) => r.statusCode === 403)) expect(refused.json().error).toBe(PRIVACY_MESSAGES.exportsBlocked);
    // A full export by another way (the PDF) is refused as well.
    expect((await get(headers, "/api/pdf-reports/generate?includeStudents=false")).statusCode).toBe(403);
  });

  it("does not cap full exports while the alarm only warns", async () => {
    const { headers } = await freshUser();
    await setPrivacy({ bulkExportThreshold: 1_000_000, blockOnAlarm: false });
    const answers = await Promise.all(Array.from({ length: FULL_EXPORTS_ALARM + 2 }, () => get(headers, "/api/reports/students.csv")));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
  });
});
