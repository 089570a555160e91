import { FEATURE_DEFAULTS, type FeatureSettingsResponse, MESSAGES, type SaveFeatureSettingsRequest } from "@tally/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { listChanges } from "../audit/audit.service.js";

const { t, w, as } = useDashboardWorld();
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "features").execute();
  await t.db.deleteFrom("audit_log").where("entity", "=", "settings").execute();
});

const save = (user: WorldUserKey, payload: unknown) =>
  t.app.inject({ method: "POST", url: "/api/settings/features", headers: as[user], payload: payload as object });
const read = async (user: WorldUserKey, schoolId?: number) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/settings/features${schoolId === undefined ? "" : `?school_id=${schoolId}`}`,
    headers: as[user],
  });
  expect(res.statusCode).toBe(200);
  return res.json<FeatureSettingsResponse>();
};
const editStudent = (user: WorldUserKey, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/students/${id}`, headers: as[user], payload });
const auditRows = () => listChanges(t.db, { entity: "settings" });

const body = (over: Partial<SaveFeatureSettingsRequest> = {}): SaveFeatureSettingsRequest => ({
  enableExport: true,
  enableStudentEditing: true,
  applyToAllSchools: true,
  schoolSettings: {},
  ...over,
});

describe("POST /api/settings/features", () => {
  it("saves for admins and super admins, returns the saved settings, and GET reads them back", async () => {
    const settings = body({
      enableExport: false,
      applyToAllSchools: false,
      schoolSettings: { [String(w.schools.a.id)]: { enableExport: true, enableStudentEditing: false } },
    });
    const res = await save("admin", settings);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: settings });
    expect((await read("admin")).data).toEqual(settings);
    const again = await save("superAdmin", body());
    expect(again.statusCode).toBe(200);
    expect((await read("admin")).data).toEqual(FEATURE_DEFAULTS);
  });

  it.each(["schoolA", "districtAB"] as const)("refuses %s with 403 and changes nothing", async (user) => {
    const res = await save(user, body({ enableExport: false }));
    expect(res.statusCode).toBe(403);
    expect((await read("admin")).data).toEqual(FEATURE_DEFAULTS);
    expect(await auditRows()).toEqual([]);
  });

  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "POST", url: "/api/settings/features", payload: body() })).statusCode).toBe(401);
  });

  it.each<[string, unknown, string]>([
    ["a missing toggle", { enableExport: true, applyToAllSchools: true, schoolSettings: {} }, "body.enableStudentEditing"],
    ["a toggle that is no boolean", { ...body(), enableExport: "yes" }, "body.enableExport"],
    ["an unknown field", { ...body(), enableEverything: true }, "body"],
    ["missing schoolSettings", { enableExport: true, enableStudentEditing: true, applyToAllSchools: true }, "body.schoolSettings"],
    ["a school row missing a toggle", body({ schoolSettings: { "1": { enableExport: true } } as never }), "body.schoolSettings.1.enableStudentEditing"],
    ["a school row with a stray field", body({ schoolSettings: { "1": { enableExport: true, enableStudentEditing: true, x: 1 } } as never }), "body.schoolSettings.1"],
    ["a school key that is no id", body({ schoolSettings: { abc: { enableExport: true, enableStudentEditing: true } } }), "body.schoolSettings"],
  ])("answers 400 naming the field for %s", async (_name, payload, path) => {
    const res = await save("admin", payload);
    expect(res.statusCode).toBe(400);
    const reply = res.json<{ code: string; details: Array<{ path: string }> }>();
    expect(reply.code).toBe("VALIDATION_ERROR");
    expect(reply.details.map((d) => d.path)).toContainEqual(expect.stringContaining(path));
    expect(await auditRows()).toEqual([]);
  });

  it("refuses a batch naming an unknown school, naming it, and saves nothing", async () => {
    const res = await save(
      "admin",
      body({
        applyToAllSchools: false,
        schoolSettings: {
          [String(w.schools.a.id)]: { enableExport: false, enableStudentEditing: false },
          "987654": { enableExport: false, enableStudentEditing: false },
        },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "School 987654 not found", details: [{ path: "body.schoolSettings.987654" }] });
    expect((await read("admin")).data).toEqual(FEATURE_DEFAULTS);
    expect(await auditRows()).toEqual([]);
  });

  it("writes one audit row per save, with what changed from what to what", async () => {
    const first = body({ enableExport: false });
    const second = body({ enableStudentEditing: false });
    await save("admin", first);
    await save("superAdmin", second);
    const rows = await auditRows();
    expect(rows).toHaveLength(2);
    const [newest, oldest] = rows;
    expect(oldest).toMatchObject({ action: "settings.features.saved", entity_id: "features", actor_id: w.users.admin.id });
    expect(oldest?.before).toEqual(FEATURE_DEFAULTS);
    expect(oldest?.after).toEqual(first);
    expect(newest).toMatchObject({ actor_id: w.users.superAdmin.id, before: first, after: second });
  });

  it("leaves one consistent state after concurrent saves, each audit row starting where another ended", async () => {
    const variants = Array.from({ length: 6 }, (_, i) =>
      body({
        enableExport: i % 2 === 0,
        applyToAllSchools: false,
        schoolSettings: {
          [String(w.schools.a.id)]: { enableExport: i % 3 === 0, enableStudentEditing: i % 2 === 1 },
          [String(w.schools.b.id)]: { enableExport: i > 2, enableStudentEditing: i < 3 },
        },
      }),
    );
    const replies = await Promise.all(variants.map((v, i) => save(i % 2 === 0 ? "admin" : "superAdmin", v)));
    expect(replies.map((r) => r.statusCode)).toEqual(variants.map(() => 200));
    const final = (await read("admin")).data;
    expect(variants).toContainEqual(final);
    // By id, the order the saves took the lock in (their clock times were read before it).
    const rows = (await auditRows()).toSorted((a, b) => Number(a.id) - Number(b.id));
    expect(rows).toHaveLength(variants.length);
    // Serialised: the first save started from the defaults, each next one from the one before.
    expect(rows[0]?.before).toEqual(FEATURE_DEFAULTS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.before).toEqual(rows[i - 1]?.after);
    expect(rows.at(-1)?.after).toEqual(final);
  });
});

describe("the saved toggles", () => {
  const perSchool = () =>
    body({
      enableExport: true,
      enableStudentEditing: true,
      applyToAllSchools: false,
      schoolSettings: { [String(w.schools.a.id)]: { enableExport: false, enableStudentEditing: false } },
    });

  it("resolve per school when not applied to all, a school without a row taking the global values", async () => {
    await save("admin", perSchool());
    expect((await read("schoolA")).effective).toEqual({ school_id: w.schools.a.id, enableExport: false, enableStudentEditing: false });
    expect((await read("schoolB")).effective).toEqual({ school_id: w.schools.b.id, enableExport: true, enableStudentEditing: true });
    await save("admin", { ...perSchool(), enableExport: false });
    expect((await read("schoolB")).effective).toMatchObject({ enableExport: false, enableStudentEditing: true });
  });

  it("resolve to the global values everywhere when applied to all schools", async () => {
    await save("admin", { ...perSchool(), applyToAllSchools: true, enableStudentEditing: false });
    expect((await read("schoolA")).effective).toEqual({ school_id: w.schools.a.id, enableExport: true, enableStudentEditing: false });
    expect((await read("districtAB", w.schools.b.id)).effective).toMatchObject({ enableExport: true, enableStudentEditing: false });
  });

  it("refuse student editing at a school with editing off, with a clear text, and still let admins edit", async () => {
    await save("admin", perSchool());
    const refused = await editStudent("schoolA", w.students.aMover.id, { first_name: "Adele" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: MESSAGES.studentEditingOff, code: "FORBIDDEN" });
    const district = await editStudent("districtAB", w.students.aMover.id, { first_name: "Adele" });
    expect(district.statusCode).toBe(403);
    expect(district.json().error).toBe(MESSAGES.studentEditingOff);
    expect((await editStudent("districtAB", w.students.bOpen.id, { first_name: "Finn" })).statusCode).toBe(200);
    expect((await editStudent("admin", w.students.aMover.id, { first_name: "Ada" })).statusCode).toBe(200);
    expect((await editStudent("superAdmin", w.students.aMover.id, { first_name: "Ada" })).statusCode).toBe(200);
    // Turned back on: the school user may edit on the very next request.
    await save("admin", body());
    expect((await editStudent("schoolA", w.students.aMover.id, { first_name: "Ada" })).statusCode).toBe(200);
  });
});
