import type { FeatureSettingsResponse, SchoolItem } from "@tally/contract";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSchool, buildUser, setSetting } from "../../../test/factories.js";
import { type LoggedIn, loginAs, useTestApp } from "../../../test/test-app.js";

const t = useTestApp();
let schoolA: number;
let schoolB: number;
let schoolC: number;
let as: Record<"admin" | "schoolA" | "districtAB", LoggedIn>;

beforeAll(async () => {
  [schoolA, schoolB, schoolC] = await Promise.all([buildSchool(t.db), buildSchool(t.db), buildSchool(t.db)]).then((s) =>
    s.map((x) => x.id),
  );
  as = {
    admin: await loginAs(t.app, await buildUser(t.db, { role: "admin" })),
    schoolA: await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId: schoolA })),
    districtAB: await loginAs(t.app, await buildUser(t.db, { role: "district_user", schoolIds: [schoolA, schoolB] })),
  };
});
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "features").execute();
});

const get = (user: keyof typeof as | null, query = "") =>
  t.app.inject({
    method: "GET",
    url: `/api/settings/features${query}`,
    headers: user === null ? {} : as[user].headers,
  });

const perSchool = () => ({
  enableExport: true,
  enableStudentEditing: true,
  applyToAllSchools: false,
  schoolSettings: {
    [String(schoolA)]: { enableExport: false, enableStudentEditing: false },
    [String(schoolB)]: { enableStudentEditing: false },
    [String(schoolC)]: { enableExport: false },
  },
});

describe("GET /api/settings/features", () => {
  it("needs a signed-in user", async () => {
    expect((await get(null)).statusCode).toBe(401);
  });

  it("gives the spec's defaults when nothing was saved", async () => {
    for (const user of ["admin", "schoolA", "districtAB"] as const) {
      const res = await get(user);
      expect(res.statusCode).toBe(200);
      expect(res.json<FeatureSettingsResponse>().data).toEqual({
        enableExport: true,
        enableStudentEditing: true,
        applyToAllSchools: true,
        schoolSettings: {},
      });
      expect(res.json<FeatureSettingsResponse>().effective).toMatchObject({ enableExport: true, enableStudentEditing: true });
    }
  });

  it("resolves a school user's own school, and shows them only their school's row", async () => {
    await setSetting(t.db, "features", perSchool());
    const res = await get("schoolA");
    expect(res.statusCode).toBe(200);
    const body = res.json<FeatureSettingsResponse>();
    expect(body.effective).toEqual({ school_id: schoolA, enableExport: false, enableStudentEditing: false });
    expect(Object.keys(body.data.schoolSettings)).toEqual([String(schoolA)]);
    expect((await get("schoolA", `?school_id=${schoolB}`)).statusCode).toBe(403);
  });

  it("resolves the school a district user names, within their schools", async () => {
    await setSetting(t.db, "features", perSchool());
    const res = await get("districtAB", `?school_id=${schoolB}`);
    expect(res.json<FeatureSettingsResponse>().effective).toEqual({ school_id: schoolB, enableExport: true, enableStudentEditing: false });
    expect(Object.keys(res.json<FeatureSettingsResponse>().data.schoolSettings).sort()).toEqual([String(schoolA), String(schoolB)].sort());
    expect((await get("districtAB")).json<FeatureSettingsResponse>().effective).toEqual({
      school_id: null,
      enableExport: true,
      enableStudentEditing: true,
    });
    expect((await get("districtAB", `?school_id=${schoolC}`)).statusCode).toBe(403);
  });

  it("gives admins every school's row and any school's toggles", async () => {
    await setSetting(t.db, "features", perSchool());
    const res = await get("admin", `?school_id=${schoolC}`);
    expect(res.json<FeatureSettingsResponse>().data).toEqual(perSchool());
    expect(res.json<FeatureSettingsResponse>().effective).toEqual({ school_id: schoolC, enableExport: false, enableStudentEditing: true });
  });

  it("applies the global values everywhere when applyToAllSchools is on", async () => {
    await setSetting(t.db, "features", { ...perSchool(), enableExport: false, applyToAllSchools: true });
    const res = await get("schoolA");
    expect(res.json<FeatureSettingsResponse>().effective).toEqual({ school_id: schoolA, enableExport: false, enableStudentEditing: true });
    expect((await get("districtAB", `?school_id=${schoolB}`)).json<FeatureSettingsResponse>().effective).toMatchObject({
      enableStudentEditing: true,
    });
  });

  it("refuses a school id that is no id", async () => {
    expect((await get("admin", "?school_id=abc")).statusCode).toBe(400);
    expect((await get("admin", "?school_id=0")).statusCode).toBe(400);
  });
});

describe("the demo setting", () => {
  it("names the school hidden from admins, read with the caller on every request", async () => {
    const visibleSchoolIds = async () =>
      (await t.app.inject({ method: "GET", url: "/api/schools", headers: as.admin.headers })).json<{ data: SchoolItem[] }>().data.map((s) => s.id);
    expect(await visibleSchoolIds()).toEqual(expect.arrayContaining([schoolA, schoolB, schoolC]));
    await setSetting(t.db, "demo", { schoolId: schoolB, cohortId: 6 });
    try {
      const ids = await visibleSchoolIds();
      expect(ids).toEqual(expect.arrayContaining([schoolA, schoolC]));
      expect(ids).not.toContain(schoolB);
    } finally {
      await t.db.deleteFrom("settings").where("key", "=", "demo").execute();
    }
  });
});
