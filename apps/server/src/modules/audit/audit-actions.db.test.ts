import { AUDIT_ACTIONS, AUDIT_ENTITIES, auditActionText, type ProcessFlagsResponse } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildTeam, buildUser } from "../../../test/factories.js";
import { importForm, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { week3File } from "../../../test/report-files.js";
import { listChanges } from "./audit.service.js";

// Every audited action, made through the API from a known client address: it leaves exactly
// one row naming the actor and that address, with before/after free of secrets.
const t = useTestApp();
const ADDRESS = "203.0.113.7";

let admin: { id: number; headers: { authorization: string } };
async function signedInAdmin() {
  if (!admin) {
    const user = await buildUser(t.db, { role: "super_admin" });
    admin = { id: user.id, headers: (await loginAs(t.app, user)).headers };
  }
  return admin;
}

type Method = "GET" | "PUT" | "POST" | "DELETE";
async function send(method: Method, url: string, payload?: unknown) {
  const { headers } = await signedInAdmin();
  return t.app.inject({ method, url, headers, remoteAddress: ADDRESS, ...(payload === undefined ? {} : { payload: payload as string }) });
}

/** The rows the action added: run it, then compare against the log before. */
async function rowsAddedBy(action: () => Promise<{ statusCode: number; body: string }>, expectedStatus = 200) {
  const before = new Set((await listChanges(t.db, { limit: 10_000 })).map((r) => r.id));
  const res = await action();
  expect(res.statusCode, res.body).toBe(expectedStatus);
  return (await listChanges(t.db, { limit: 10_000 })).filter((r) => !before.has(r.id));
}

/** No password, hash or token may appear in what the log keeps. */
function expectNoSecrets(row: { before: unknown; after: unknown }, secrets: string[] = []) {
  const text = JSON.stringify([row.before, row.after]);
  expect(text).not.toMatch(/password_hash|\$argon2|token|session_version/i);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

async function expectOneRow(rows: Awaited<ReturnType<typeof rowsAddedBy>>, expected: { action: string; entity: string; entityId?: string | null }) {
  expect(rows.map((r) => r.action)).toEqual([expected.action]);
  const [row] = rows;
  if (!row) throw new Error("no row");
  expect(row).toMatchObject({ entity: expected.entity, actor_id: (await signedInAdmin()).id, client_address: ADDRESS });
  if (expected.entityId !== undefined) expect(row.entity_id).toBe(expected.entityId);
  expectNoSecrets(row);
  return row;
}

describe("users: every change is audited", () => {
  it("creating a user: the account as set up, without its password", async () => {
    const school = await buildSchool(t.db);
    const password = "Another-Secret-91";
    const rows = await rowsAddedBy(
      () => send("POST", "/api/auth/register", { username: "audited1", email: "audited1@example.org", password, role: "school_user", school_id: school.id }),
      201,
    );
    const row = await expectOneRow(rows, { action: "user.created", entity: "user" });
    expect(row.before).toBeNull();
    expect(row.after).toMatchObject({ username: "audited1", role: "school_user", school_id: school.id, is_active: true });
    expectNoSecrets(row, [password]);
  });

  it("editing a user: before and after", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const rows = await rowsAddedBy(() => send("PUT", `/api/users/${user.id}`, { username: `${user.username}x` }));
    const row = await expectOneRow(rows, { action: "user.updated", entity: "user", entityId: String(user.id) });
    expect(row.before).toMatchObject({ username: user.username, role: "admin" });
    expect(row.after).toMatchObject({ username: `${user.username}x`, role: "admin" });
  });

  it("changing a role and schools", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const user = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    const rows = await rowsAddedBy(() => send("PUT", `/api/users/${user.id}`, { role: "district_user", school_ids: [b.id, a.id] }));
    const row = await expectOneRow(rows, { action: "user.updated", entity: "user" });
    expect(row.before).toMatchObject({ role: "school_user", school_id: a.id, school_ids: [a.id] });
    expect(row.after).toMatchObject({ role: "district_user", school_id: null, school_ids: [a.id, b.id].sort((x, y) => x - y) });
  });

  it("deactivating (POST and DELETE) and reactivating", async () => {
    const user = await buildUser(t.db, { role: "school_user", schoolId: (await buildSchool(t.db)).id });
    const off = await rowsAddedBy(() => send("POST", `/api/users/${user.id}/deactivate`));
    expect((await expectOneRow(off, { action: "user.deactivated", entity: "user" })).after).toEqual({ is_active: false });
    const on = await rowsAddedBy(() => send("POST", `/api/users/${user.id}/reactivate`));
    expect((await expectOneRow(on, { action: "user.reactivated", entity: "user" })).after).toEqual({ is_active: true });
    const deleted = await rowsAddedBy(() => send("DELETE", `/api/users/${user.id}`));
    await expectOneRow(deleted, { action: "user.deactivated", entity: "user", entityId: String(user.id) });
  });

  it("an unchanged state leaves no row", async () => {
    const user = await buildUser(t.db, { role: "admin", isActive: false });
    expect(await rowsAddedBy(() => send("POST", `/api/users/${user.id}/deactivate`))).toEqual([]);
  });

  it("a school user's school and a district user's school access", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const schoolUser = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    const one = await rowsAddedBy(() => send("PUT", `/api/users/${schoolUser.id}/school`, { school_id: b.id }));
    const row = await expectOneRow(one, { action: "user.school.changed", entity: "user" });
    expect([row.before, row.after]).toEqual([{ school_id: a.id }, { school_id: b.id }]);

    const district = await buildUser(t.db, { role: "district_user", schoolIds: [a.id] });
    const access = await rowsAddedBy(() => send("PUT", `/api/users/${district.id}/schools`, { schoolIds: [b.id] }));
    const accessRow = await expectOneRow(access, { action: "user.school_access.changed", entity: "user" });
    expect([accessRow.before, accessRow.after]).toEqual([{ school_ids: [a.id] }, { school_ids: [b.id] }]);
  });

  it("an admin setting a password, and mailing a reset link: neither the password nor the link is kept", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const password = "Brand-New-Secret-44";
    const set = await rowsAddedBy(() => send("POST", `/api/users/${user.id}/reset-password`, { password }));
    expectNoSecrets(await expectOneRow(set, { action: "user.password.set", entity: "user" }), [password]);
    const mailed = await rowsAddedBy(() => send("POST", `/api/users/${user.id}/reset-password`, {}));
    const row = await expectOneRow(mailed, { action: "user.password_reset.sent", entity: "user" });
    // Only where the link went: the link (a secret) is not kept.
    expect(row.after).toEqual({ email: user.email });
  });
});

describe("students: an edit is audited", () => {
  it("with the changed fields only, before and after; a save that changes nothing leaves no row", async () => {
    const school = await buildSchool(t.db);
    const cohort = await buildCohort(t.db);
    const team = await buildTeam(t.db, { schoolId: school.id, cohortId: cohort.id });
    const student = await buildStudent(t.db, { schoolId: school.id, firstName: "Ann", lastName: "Lee", cohortIds: [cohort.id] });
    const rows = await rowsAddedBy(() => send("PUT", `/api/students/${student.id}`, { first_name: "Anne", last_name: "Lee", team_id: team.id }));
    const row = await expectOneRow(rows, { action: "student.updated", entity: "student", entityId: String(student.id) });
    expect(row.before).toEqual({ first_name: "Ann", team_id: null });
    expect(row.after).toEqual({ first_name: "Anne", team_id: team.id });
    expect(await rowsAddedBy(() => send("PUT", `/api/students/${student.id}`, { first_name: "Anne", team_id: team.id }))).toEqual([]);
  });
});

describe("other audited changes carry the client address", () => {
  it("settings", async () => {
    const body = { enableExport: false, enableStudentEditing: true, applyToAllSchools: true, schoolSettings: {} };
    const rows = await rowsAddedBy(() => send("POST", "/api/settings/features", body));
    await expectOneRow(rows, { action: "settings.features.saved", entity: "settings" });
  });

  it("an import and its undo", async () => {
    for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
    const { headers } = await signedInAdmin();
    const committed = await rowsAddedBy(() =>
      t.app.inject({
        method: "POST",
        url: "/api/flag-upload/commit-weekly-data",
        headers,
        remoteAddress: ADDRESS,
        payload: importForm(WEEK3_NEW_COHORT, week3Files()) as unknown as string,
      }),
    );
    const row = await expectOneRow(committed, { action: "import.committed", entity: "import_batch" });
    const undone = await rowsAddedBy(() => send("POST", `/api/imports/${row.entity_id}/undo`));
    await expectOneRow(undone, { action: "import.undone", entity: "import_batch", entityId: row.entity_id });
  });

  it("a flag import", async () => {
    const { headers } = await signedInAdmin();
    const form = importForm({ ...WEEK3_NEW_COHORT, cohortName: "Audit Flags Cohort" }, week3Files());
    const imported = await t.app.inject({ method: "POST", url: "/api/flag-upload/commit-weekly-data", headers, payload: form as unknown as string });
    expect(imported.statusCode, imported.body).toBe(200);
    const cohortId = imported.json<{ cohortId: number }>().cohortId;
    const { progressReport, reflectionReport } = week3Files();
    const crm = week3File("crm-attendance.csv");
    const processed = await t.app.inject({
      method: "POST",
      url: "/api/flag-upload/process-flags",
      headers,
      payload: importForm({ cohortId, currentWeek: 3 }, { progressReport, reflectionReport, attendanceReport: crm }) as unknown as string,
    });
    expect(processed.statusCode, processed.body).toBe(200);
    const run = processed.json<ProcessFlagsResponse>();
    const verificationData = run.data.map((r) => ({ studentId: r.studentId, benefit_assignment_id: r.benefit_assignment_id, calculated_flags: r.calculated_flags }));
    const rows = await rowsAddedBy(() => send("POST", "/api/flag-upload/confirm-flag-import", { runId: run.runId, cohortId, currentWeek: 3, verificationData }));
    await expectOneRow(rows, { action: "flags.imported", entity: "import_batch" });
  });

  it("a report e-mail", async () => {
    const rows = await rowsAddedBy(() => send("POST", "/api/email/send-report", { recipient: "funder@example.test" }));
    const row = await expectOneRow(rows, { action: "send", entity: "report_email" });
    expect(row.after).toMatchObject({ recipient: "funder@example.test" });
  });

  it("exports of student data: the CSV and the PDF", async () => {
    const csv = await rowsAddedBy(() => send("GET", "/api/reports/students.csv"));
    expect((await expectOneRow(csv, { action: "export.csv", entity: "student_data" })).after).toMatchObject({ format: "csv" });
    const pdf = await rowsAddedBy(() => send("GET", "/api/pdf-reports/generate"));
    await expectOneRow(pdf, { action: "export.pdf", entity: "student_data" });
  });

  it("a refused export leaves no row", async () => {
    expect(await rowsAddedBy(() => send("GET", "/api/reports/students.csv?schoolId=2147483000"), 404)).toEqual([]);
  });
});

describe("the client address behind a proxy", () => {
  const proxied = useTestApp({ config: { trustProxy: 1 } });
  it("is the forwarded one when TRUST_PROXY trusts the proxy", async () => {
    const user = await buildUser(proxied.db, { role: "super_admin" });
    const { headers } = await loginAs(proxied.app, user);
    const target = await buildUser(proxied.db, { role: "admin" });
    const res = await proxied.app.inject({
      method: "POST",
      url: `/api/users/${target.id}/deactivate`,
      headers: { ...headers, "x-forwarded-for": "198.51.100.23" },
      remoteAddress: "10.0.0.2",
    });
    expect(res.statusCode).toBe(200);
    const [row] = await listChanges(proxied.db, { entity: "user", limit: 1 });
    expect(row).toMatchObject({ action: "user.deactivated", actor_id: user.id, client_address: "198.51.100.23" });
  });

  it("is the connection's own when the forwarded value is not an address", async () => {
    const user = await buildUser(proxied.db, { role: "super_admin" });
    const { headers } = await loginAs(proxied.app, user);
    for (const forwarded of ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "y".repeat(9_000), "198.51.100.5, <b>"]) {
      const target = await buildUser(proxied.db, { role: "admin" });
      const res = await proxied.app.inject({
        method: "POST",
        url: `/api/users/${target.id}/deactivate`,
        headers: { ...headers, "x-forwarded-for": forwarded },
        remoteAddress: "10.0.0.2",
      });
      expect(res.statusCode).toBe(200);
      const [row] = await listChanges(proxied.db, { entity: "user", limit: 1 });
      expect(row, forwarded.slice(0, 40)).toMatchObject({ action: "user.deactivated", entity_id: String(target.id), client_address: "10.0.0.2" });
    }
  });

  it("is the connection's own without TRUST_PROXY (a forged header is ignored)", async () => {
    const target = await buildUser(t.db, { role: "admin" });
    const { headers } = await signedInAdmin();
    await t.app.inject({
      method: "POST",
      url: `/api/users/${target.id}/deactivate`,
      headers: { ...headers, "x-forwarded-for": "198.51.100.99" },
      remoteAddress: ADDRESS,
    });
    const [row] = await listChanges(t.db, { entity: "user", limit: 1 });
    expect(row?.client_address).toBe(ADDRESS);
  });
});


describe("the weekly digest: opting out and test sends are audited", () => {
  it("turning one's digest off, and an admin's test digest", async () => {
    const { id } = await signedInAdmin();
    const off = await rowsAddedBy(() => send("PUT", "/api/profile/digest", { enabled: false }));
    const row = await expectOneRow(off, { action: "user.digest.changed", entity: "user", entityId: String(id) });
    expect(row).toMatchObject({ before: { digestEnabled: true }, after: { digestEnabled: false, via: "profile" } });
    await expectOneRow(await rowsAddedBy(() => send("POST", "/api/digests/test")), { action: "user.digest.test_sent", entity: "user", entityId: String(id) });
  });
});

describe("the words of the audit page", () => {
  // Last in this file, after every audited action above has run: a code recorded without words
  // in the contract (a cast past the types, a new module) fails here.
  it("has words for every action and entity recorded above", async () => {
    const rows = await listChanges(t.db, { limit: 10_000 });
    expect(rows.length).toBeGreaterThan(15);
    const actions = new Set(rows.map((r) => r.action));
    const entities = new Set(rows.map((r) => r.entity));
    expect([...actions].filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))).toEqual([]);
    expect([...entities].filter((e) => !(AUDIT_ENTITIES as readonly string[]).includes(e))).toEqual([]);
    for (const row of rows) expect(auditActionText(row.action, row.entity)).not.toMatch(/[._]/);
  });
});
