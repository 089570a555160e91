import { DEMO_SETTINGS_DEFAULTS, type DemoSettingsResponse, MESSAGES, type StudentsResponse, type StudentsSummary } from "@tally/contract";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BuiltUser, buildUser, setSetting } from "../../../test/factories.js";
import { useDashboardWorld } from "../../../test/dashboard-world.js";
import { caller, type LoggedIn, loginAs } from "../../../test/test-app.js";

const { t, w, as } = useDashboardWorld();
const call = caller(t);
let demoUser: BuiltUser;
let districtADemo: LoggedIn;

beforeAll(async () => {
  demoUser = await buildUser(t.db, { role: "school_user", schoolId: w.schools.demo.id });
  districtADemo = await loginAs(t.app, await buildUser(t.db, { role: "district_user", schoolIds: [w.schools.a.id, w.schools.demo.id] }));
});
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "demo").execute();
});

const save = (headers: Record<string, string>, body: unknown) => call("POST", "/api/settings/demo", headers, body);
const setToggles = (over: Partial<typeof DEMO_SETTINGS_DEFAULTS>) => setSetting(t.db, "demo", { ...DEMO_SETTINGS_DEFAULTS, ...over });
const studentNames = async (headers: Record<string, string>, query = "") => {
  const res = await call("GET", `/api/students${query}`, headers);
  expect(res.statusCode).toBe(200);
  return res.json<StudentsResponse>().data.map((s) => `${s.first_name} ${s.last_name}`).sort();
};
const summary = async (headers: Record<string, string>, query = "") =>
  (await call("GET", `/api/students/summary${query}`, headers)).json<StudentsSummary>();
const demoQuery = () => `?school_id=${w.schools.demo.id}`;

describe("GET /api/settings/demo", () => {
  it("needs a signed-in user", async () => {
    expect((await call("GET", "/api/settings/demo")).statusCode).toBe(401);
  });

  it("gives the defaults (visible, admin access, no school access; school 123, cohort 6) to any signed-in user", async () => {
    for (const headers of [as.admin, as.schoolA, as.districtAB]) {
      const res = await call("GET", "/api/settings/demo", headers);
      expect(res.statusCode).toBe(200);
      expect(res.json<DemoSettingsResponse>().data).toEqual({
        schoolId: 123,
        cohortId: 6,
        isDemoVisible: true,
        adminAccess: true,
        schoolAccess: false,
      });
    }
  });
});

describe("POST /api/settings/demo", () => {
  const body = { isDemoVisible: true, adminAccess: false, schoolAccess: true };

  it("saves the toggles for admins and super admins, keeps the stored demo ids, and writes one audit row per save", async () => {
    await setSetting(t.db, "demo", { schoolId: 123, cohortId: 6, isDemoVisible: true });
    const auditBefore = await t.db.selectFrom("audit_log").select("id").where("entity_id", "=", "demo").execute();
    const res = await save(as.admin, body);
    expect(res.statusCode).toBe(200);
    expect(res.json<DemoSettingsResponse>().data).toEqual({ schoolId: 123, cohortId: 6, ...body });
    expect((await call("GET", "/api/settings/demo", as.schoolA)).json<DemoSettingsResponse>().data).toEqual({ schoolId: 123, cohortId: 6, ...body });
    expect((await save(as.superAdmin, { ...body, adminAccess: true })).statusCode).toBe(200);
    const rows = await t.db.selectFrom("audit_log").selectAll().where("entity_id", "=", "demo").orderBy("id").execute();
    expect(rows.length - auditBefore.length).toBe(2);
    const first = rows[rows.length - 2];
    expect(first).toMatchObject({ actor_id: w.users.admin.id, entity: "settings", action: "update" });
    expect(first?.before).toMatchObject({ adminAccess: true, schoolAccess: false });
    expect(first?.after).toMatchObject(body);
  });

  it("applies concurrent saves one after the other, the very first ones too: each audit row starts where another ended", async () => {
    const variants = Array.from({ length: 6 }, (_, i) => ({ isDemoVisible: i % 2 === 0, adminAccess: i % 3 === 0, schoolAccess: i > 2 }));
    const auditBefore = await t.db.selectFrom("audit_log").select("id").where("entity_id", "=", "demo").execute();
    const replies = await Promise.all(variants.map((v, i) => save(i % 2 === 0 ? as.admin : as.superAdmin, v)));
    expect(replies.map((r) => r.statusCode)).toEqual(variants.map(() => 200));
    const rows = (await t.db.selectFrom("audit_log").selectAll().where("entity_id", "=", "demo").orderBy("id").execute()).slice(auditBefore.length);
    expect(rows).toHaveLength(variants.length);
    expect(rows[0]?.before).toEqual(DEMO_SETTINGS_DEFAULTS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.before).toEqual(rows[i - 1]?.after);
    expect((await call("GET", "/api/settings/demo", as.admin)).json<DemoSettingsResponse>().data).toEqual(rows.at(-1)?.after);
  });

  it("refuses school and district users (403) and changes nothing", async () => {
    for (const headers of [as.schoolA, as.districtAB]) {
      const res = await save(headers, body);
      expect(res.statusCode).toBe(403);
    }
    expect((await call("GET", "/api/settings/demo", as.admin)).json<DemoSettingsResponse>().data).toEqual(DEMO_SETTINGS_DEFAULTS);
  });

  it.each([
    ["a missing toggle", { isDemoVisible: true, adminAccess: true }, "schoolAccess"],
    ["a string for a boolean", { ...body, isDemoVisible: "yes" }, "isDemoVisible"],
    ["a number for a boolean", { ...body, adminAccess: 1 }, "adminAccess"],
  ])("answers %s with a 400 naming the field", async (_name, payload, field) => {
    const res = await save(as.admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(field);
  });

  it("answers a body that is not an object with a 400", async () => {
    expect((await save(as.admin, [1, 2])).statusCode).toBe(400);
  });
});

describe("isDemoVisible off", () => {
  it("refuses a demo-school user's sign-in with the text, and ends an open session on its next request", async () => {
    const open = await loginAs(t.app, demoUser);
    await setToggles({ isDemoVisible: false });
    const res = await call("POST", "/api/auth/login", {}, { login: demoUser.username, password: demoUser.password });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ error: string }>()).toMatchObject({ error: MESSAGES.demoSwitchedOff });
    const next = await call("GET", "/api/students", open.headers);
    expect(next.statusCode).toBe(401);
    expect(next.body).toContain(MESSAGES.demoSwitchedOff);
    const refreshed = await call("POST", "/api/auth/refresh", {}, { refreshToken: open.refreshToken });
    expect(refreshed.statusCode).toBe(401);
    // Back on: the same user signs in again.
    await setToggles({ isDemoVisible: true });
    expect((await call("POST", "/api/auth/login", {}, { login: demoUser.username, password: demoUser.password })).statusCode).toBe(200);
  });

  it("removes the demo school and cohort from every list and count, for every role", async () => {
    const before = {
      district: await studentNames(districtADemo.headers),
      schoolA: await studentNames(as.schoolA),
      schools: (await call("GET", "/api/schools", districtADemo.headers)).json<{ data: Array<{ id: number }> }>().data.map((s) => s.id),
      summary: await summary(districtADemo.headers),
    };
    expect(before.district).toContain("Kim Demo");
    expect(before.schoolA).toContain("Eve Ellis");
    expect(before.schools).toContain(w.schools.demo.id);

    await setToggles({ isDemoVisible: false });
    const district = await studentNames(districtADemo.headers);
    expect(district).not.toContain("Kim Demo");
    expect(district).not.toContain("Eve Ellis"); // only in the demo cohort
    expect(await studentNames(as.schoolA)).not.toContain("Eve Ellis");
    const schools = (await call("GET", "/api/schools", districtADemo.headers)).json<{ data: Array<{ id: number }> }>().data.map((s) => s.id);
    expect(schools).not.toContain(w.schools.demo.id);
    const cohorts = (await call("GET", "/api/cohorts", districtADemo.headers)).json<{ data: Array<{ id: number }> }>().data.map((c) => c.id);
    expect(cohorts).not.toContain(w.cohorts.demo.id);
    const teams = (await call("GET", "/api/teams", districtADemo.headers)).json<{ data: Array<{ id: number }> }>().data.map((x) => x.id);
    expect(teams).not.toContain(w.teams.demo.id);
    expect(teams).not.toContain(w.teams.aDemo.id);
    const after = await summary(districtADemo.headers);
    expect(after.schoolCount).toBe(before.summary.schoolCount - 1);
    expect(after.studentCount).toBe(district.length);
    // Nobody can name it either.
    for (const headers of [as.admin, as.schoolA, districtADemo.headers]) {
      expect(await studentNames(headers, demoQuery())).toEqual([]);
    }
  });
});

describe("opening the demo school's dashboard by naming it", () => {
  it("lets admins read it with adminAccess on (the default), never unfiltered, and not with it off", async () => {
    expect(await studentNames(as.admin, demoQuery())).toEqual(["Kim Demo"]);
    expect((await summary(as.admin, demoQuery())).studentCount).toBe(1);
    const trends = await call("GET", `/api/attendance/cohort-trends${demoQuery()}`, as.admin);
    expect(trends.statusCode).toBe(200);
    expect(trends.body).not.toBe('{"data":[]}');
    // Unfiltered admin lists and counts still leave it out.
    expect(await studentNames(as.admin)).not.toContain("Kim Demo");
    expect(await studentNames(as.superAdmin, `?schoolIds=${w.schools.a.id},${w.schools.demo.id}`)).not.toContain("Kim Demo");

    await setToggles({ adminAccess: false });
    expect(await studentNames(as.admin, demoQuery())).toEqual([]);
    expect((await summary(as.superAdmin, demoQuery())).studentCount).toBe(0);
  });

  it("opens a demo student's detail, attendance and weekly data to whom the demo dashboard is open, and only to them", async () => {
    const id = w.students.demo.id;
    const urls = [`/api/students/${id}`, `/api/attendance/student/${id}`, `/api/weekly-data/${id}`];
    const statuses = async (headers: Record<string, string>) => Promise.all(urls.map(async (u) => (await call("GET", u, headers)).statusCode));
    expect(await statuses(as.admin)).toEqual([200, 200, 200]);
    expect(await statuses(as.schoolA)).toEqual([404, 404, 404]);

    await setToggles({ adminAccess: false, schoolAccess: true });
    expect(await statuses(as.admin)).toEqual([404, 404, 404]);
    expect(await statuses(as.schoolA)).toEqual([200, 200, 200]);
    expect((await call("GET", `/api/students/${id}`, as.schoolA)).json<{ first_name: string }>().first_name).toBe("Kim");

    await setToggles({ isDemoVisible: false, adminAccess: true, schoolAccess: true });
    expect(await statuses(as.admin)).toEqual([404, 404, 404]);
    expect(await statuses(as.schoolA)).toEqual([404, 404, 404]);
  });

  it("lets school and district users read it with schoolAccess on, read-only, and refuses it by default", async () => {
    expect(await studentNames(as.schoolA, demoQuery())).toEqual([]);
    expect(await studentNames(as.districtAB, demoQuery())).toEqual([]);

    await setToggles({ schoolAccess: true });
    expect(await studentNames(as.schoolA, demoQuery())).toEqual(["Kim Demo"]);
    expect(await studentNames(as.districtAB, demoQuery())).toEqual(["Kim Demo"]);
    // Their own dashboards stay their own.
    expect(await studentNames(as.schoolA)).not.toContain("Kim Demo");
    // Read-only: editing a demo student is refused.
    const edit = await call("PUT", `/api/students/${w.students.demo.id}`, as.schoolA, { first_name: "Changed" });
    expect(edit.statusCode).toBe(404);
    const stored = await t.db.selectFrom("students").select("first_name").where("id", "=", w.students.demo.id).executeTakeFirstOrThrow();
    expect(stored.first_name).toBe("Kim");
  });
});
