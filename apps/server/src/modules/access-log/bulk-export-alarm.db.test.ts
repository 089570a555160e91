import { PRIVACY_DEFAULTS, PRIVACY_MESSAGES } from "@tally/contract";
import { describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { useReportWorld } from "../../../test/report-world.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { listChanges } from "../audit/audit.service.js";

const smtp = useSmtpTestServer();
const { t, w, as } = useReportWorld({ mailer: { kind: "smtp", send: (m) => smtp.mailer.send(m) } });

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });
const putPrivacy = (user: WorldUserKey, payload: object) => t.app.inject({ method: "PUT", url: "/api/settings/privacy", headers: as[user], payload });
/** Reading the record writes what is buffered, and so runs the alarm check. */
const flush = async () => expect((await get("superAdmin", "/api/access-log?limit=1")).statusCode).toBe(200);

describe("GET/PUT /api/settings/privacy", () => {
  it("answers the defaults, saves a whole setting (audited) and names a bad field", async () => {
    expect((await get("admin", "/api/settings/privacy")).json()).toEqual(PRIVACY_DEFAULTS);
    const saved = await putPrivacy("admin", { retentionYears: 3, bulkExportThreshold: 500, blockOnAlarm: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get("admin", "/api/settings/privacy")).json()).toEqual({ retentionYears: 3, bulkExportThreshold: 500, blockOnAlarm: false });
    const audit = await listChanges(t.db, { entity: "settings" });
    expect(audit[0]).toMatchObject({ entity_id: "privacy", action: "update" });
    const bad = await putPrivacy("admin", { retentionYears: 0, bulkExportThreshold: 500, blockOnAlarm: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("retentionYears");
    expect((await putPrivacy("schoolA", { retentionYears: null, bulkExportThreshold: 5, blockOnAlarm: false })).statusCode).toBe(403);
  });
});

describe("the bulk-export alarm", () => {
  it("stays quiet at the threshold, rings above it: mail to every super admin, an audit row, exports refused until cleared", async () => {
    expect((await putPrivacy("admin", { retentionYears: null, bulkExportThreshold: 3, blockOnAlarm: true })).statusCode).toBe(200);
    const aStudents = [w.students.aMover.id, w.students.aTwoCohorts.id, w.students.aNoCohort.id];
    // Exactly the threshold: three distinct students, one of them twice.
    for (const id of [...aStudents, aStudents[0]]) expect((await get("districtAB", `/api/students/${id}`)).statusCode).toBe(200);
    await flush();
    expect((await listChanges(t.db, { entity: "user" })).filter((r) => r.action === "privacy.alarm.raised")).toHaveLength(0);
    expect((await get("districtAB", `/api/reports/students.csv?schoolId=${w.schools.a.id}`)).statusCode).not.toBe(403);
    // The CSV named more students: over the threshold.
    await flush();
    const raised = (await listChanges(t.db, { entity: "user" })).filter((r) => r.action === "privacy.alarm.raised");
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ entity_id: String(w.users.districtAB.id) });
    const mail = await smtp.waitForMessage((m) => m.subject === "Tally: bulk-export alarm");
    expect(mail.to).toContain(w.users.superAdmin.email);
    expect(mail.text).toContain(w.users.districtAB.username);

    const refused = await get("districtAB", `/api/reports/students.csv?schoolId=${w.schools.a.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(PRIVACY_MESSAGES.exportsBlocked);
    expect((await get("districtAB", `/api/pdf-reports/generate?schoolId=${w.schools.a.id}`)).statusCode).toBe(403);
    // Another user's exports go on.
    expect((await get("admin", `/api/pdf-reports/generate?schoolId=${w.schools.a.id}&includeStudents=false`)).statusCode).toBe(200);
    // Once: more reads do not raise a second alarm while it stands.
    await get("districtAB", `/api/students/${w.students.bOpen.id}`);
    await flush();
    expect((await listChanges(t.db, { entity: "user" })).filter((r) => r.action === "privacy.alarm.raised")).toHaveLength(1);

    expect((await t.app.inject({ method: "DELETE", url: `/api/access-log/alarms/${w.users.districtAB.id}`, headers: as.admin })).statusCode).toBe(403);
    const cleared = await t.app.inject({ method: "DELETE", url: `/api/access-log/alarms/${w.users.districtAB.id}`, headers: as.superAdmin });
    expect(cleared.json()).toEqual({ cleared: true });
    expect((await listChanges(t.db, { entity: "user" }))[0]).toMatchObject({ action: "privacy.alarm.cleared", actor_id: w.users.superAdmin.id });
    expect((await get("districtAB", `/api/pdf-reports/generate?schoolId=${w.schools.a.id}&includeStudents=false`)).statusCode).toBe(200);
  });
});

describe("the bulk-export alarm's full-export trigger", () => {
  const raisedFor = async (user: WorldUserKey) =>
    (await listChanges(t.db, { entity: "user" })).filter((r) => r.action === "privacy.alarm.raised" && r.entity_id === String(w.users[user].id));

  it("stays quiet at two full exports in 24 hours, rings at the third (mail to every super admin, an audit row); narrowed exports do not count", async () => {
    // A threshold of distinct students no one reaches: only the full exports can ring.
    expect((await putPrivacy("admin", { retentionYears: null, bulkExportThreshold: 1_000_000, blockOnAlarm: false })).statusCode).toBe(200);
    const school = w.schools.a.id;
    // Narrowed by a team: not a full export, however many.
    for (let i = 0; i < 3; i++) expect((await get("schoolA", `/api/reports/students.csv?teamId=${w.teams.a1.id}`)).statusCode).toBe(200);
    // Full: no filter; the single-school user's own school with a cohort (the cohort narrows nothing else).
    expect((await get("schoolA", "/api/reports/students.csv")).statusCode).toBe(200);
    expect((await get("schoolA", `/api/pdf-reports/generate?schoolId=${school}&cohortId=${w.cohorts.open.id}`)).statusCode).toBe(200);
    await flush();
    expect(await raisedFor("schoolA")).toHaveLength(0);

    const sent = await t.app.inject({ method: "POST", url: "/api/email/send-report", headers: as.schoolA, payload: { recipient: ["counsellor@example.test"] } });
    expect(sent.statusCode, sent.body).toBe(200);
    await flush();
    const raised = await raisedFor("schoolA");
    expect(raised).toHaveLength(1);
    expect(raised[0]?.after).toMatchObject({ fullExports: 3, threshold: 1_000_000 });
    const mail = await smtp.waitForMessage((m) => m.subject === "Tally: bulk-export alarm" && m.text.includes(w.users.schoolA.username));
    expect(mail.to).toContain(w.users.superAdmin.email);
    expect(mail.text).toContain("3 full exports");
  });
});
