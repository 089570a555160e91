import { DEMO_COHORT_ID, DEMO_SCHOOL_ID, DEMO_SETTINGS_DEFAULTS } from "@tally/contract";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildSchoolWithId, setCohortVisibility, setSetting } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { cohortVisible, type DataScope, isCohortVisible, isSchoolInScope, resolveScope, schoolInScope } from "./scope.js";

const database = useTestDatabase();
const demo = (over: Partial<typeof DEMO_SETTINGS_DEFAULTS>) => ({ ...DEMO_SETTINGS_DEFAULTS, ...over });

describe("resolveScope", () => {
  it("gives admins every school but the demo school, and narrows to requested ids", async () => {
    const db = database.db;
    const admin = await resolveScope(db, { role: "admin", accessibleSchoolIds: "all" });
    expect(admin).toMatchObject({ schools: "all", excludedSchoolIds: [DEMO_SCHOOL_ID], excludedCohortIds: [DEMO_COHORT_ID], visibility: null });
    expect((await resolveScope(db, { role: "super_admin", accessibleSchoolIds: "all" }, { schoolIds: [4, DEMO_SCHOOL_ID] })).schools).toEqual([4]);
  });

  it("hides the demo school and cohort the demo setting names, read here or with the caller", async () => {
    const db = database.db;
    const admin = { role: "admin" as const, accessibleSchoolIds: "all" as const };
    await setSetting(db, "demo", { schoolId: 77, cohortId: 8 });
    try {
      expect(await resolveScope(db, admin)).toMatchObject({ excludedSchoolIds: [77], excludedCohortIds: [8] });
      // Loaded with the caller: no second read, and the caller's copy wins.
      expect(await resolveScope(db, { ...admin, demo: { ...DEMO_SETTINGS_DEFAULTS, schoolId: 5, cohortId: 9 } })).toMatchObject({
        excludedSchoolIds: [5],
        excludedCohortIds: [9],
      });
    } finally {
      await db.deleteFrom("settings").where("key", "=", "demo").execute();
    }
  });

  it("intersects requested ids with a district user's schools and never widens", async () => {
    const db = database.db;
    const user = { role: "district_user" as const, accessibleSchoolIds: [1, 2] };
    expect((await resolveScope(db, user)).schools).toEqual([1, 2]);
    expect((await resolveScope(db, user, { schoolIds: [2, 3] })).schools).toEqual([2]);
    expect((await resolveScope(db, user, { schoolIds: [3] })).schools).toEqual([]);
    expect((await resolveScope(db, { role: "school_user", accessibleSchoolIds: [5] }, { schoolIds: [6] })).schools).toEqual([]);
    // A non-admin never gets 'all', even if the user record said so.
    expect((await resolveScope(db, { role: "school_user", accessibleSchoolIds: "all" })).schools).toEqual([]);
    expect((await resolveScope(db, { role: "district_user", accessibleSchoolIds: [DEMO_SCHOOL_ID] })).schools).toEqual([DEMO_SCHOOL_ID]);
  });

  describe("the demo toggles", () => {
    const admin = { role: "admin" as const, accessibleSchoolIds: "all" as const };
    const school = { role: "school_user" as const, accessibleSchoolIds: [5] };
    const named = { schoolIds: [DEMO_SCHOOL_ID] };
    const opened = { schools: [DEMO_SCHOOL_ID], excludedSchoolIds: [], excludedCohortIds: [] };

    it("opens the demo school to an admin who names it alone, with adminAccess on", async () => {
      const db = database.db;
      expect(await resolveScope(db, { ...admin, demo: demo({}) }, named)).toMatchObject(opened);
      expect((await resolveScope(db, { ...admin, demo: demo({ adminAccess: false }) }, named)).schools).toEqual([]);
      expect((await resolveScope(db, { ...admin, demo: demo({ isDemoVisible: false }) }, named)).schools).toEqual([]);
      // Unfiltered, or among other schools: still excluded (never in admin filters or counts).
      expect(await resolveScope(db, { ...admin, demo: demo({}) })).toMatchObject({ schools: "all", excludedSchoolIds: [DEMO_SCHOOL_ID] });
      expect((await resolveScope(db, { ...admin, demo: demo({}) }, { schoolIds: [4, DEMO_SCHOOL_ID] })).schools).toEqual([4]);
    });

    it("opens it to school and district users who name it, with schoolAccess on only", async () => {
      const db = database.db;
      expect((await resolveScope(db, { ...school, demo: demo({}) }, named)).schools).toEqual([]);
      expect(await resolveScope(db, { ...school, demo: demo({ schoolAccess: true }) }, named)).toMatchObject(opened);
      expect((await resolveScope(db, { ...school, demo: demo({ schoolAccess: true, isDemoVisible: false }) }, named)).schools).toEqual([]);
      // Their own scope stays their own school.
      expect((await resolveScope(db, { ...school, demo: demo({ schoolAccess: true }) })).schools).toEqual([5]);
    });

    it("closes the demo school and cohort to everyone while the demo is off", async () => {
      const db = database.db;
      const off = demo({ isDemoVisible: false });
      const district = { role: "district_user" as const, accessibleSchoolIds: [4, DEMO_SCHOOL_ID], demo: off };
      expect(await resolveScope(db, district)).toMatchObject({ schools: [4], excludedCohortIds: [DEMO_COHORT_ID] });
      expect(await resolveScope(db, { ...school, demo: off })).toMatchObject({ schools: [5], excludedCohortIds: [DEMO_COHORT_ID] });
      expect((await resolveScope(db, { role: "school_user", accessibleSchoolIds: [DEMO_SCHOOL_ID], demo: off })).schools).toEqual([]);
    });
  });
});

describe("cohortVisible (SQL) agrees with isCohortVisible (JS) for every school and cohort", () => {
  it("on a grid of settings", async () => {
    const db = database.db;
    const s1 = await buildSchool(db);
    const s2 = await buildSchool(db);
    const s3 = await buildSchool(db);
    await buildSchoolWithId(db, DEMO_SCHOOL_ID, "Demo");
    const cohorts = [];
    for (let i = 0; i < 7; i++) cohorts.push(await buildCohort(db));
    const [c0, c1, c2, c3, c4, c5] = cohorts.map((c) => c.id) as [number, number, number, number, number, number];
    await setCohortVisibility(db, c1, null, false); // hidden everywhere
    await setCohortVisibility(db, c2, s1.id, false); // hidden at s1
    await setCohortVisibility(db, c3, null, false);
    await setCohortVisibility(db, c3, s2.id, true); // hidden but shown at s2
    await setCohortVisibility(db, c4, null, true);
    await setCohortVisibility(db, c4, s3.id, false); // shown everywhere but hidden at s3
    await setCohortVisibility(db, c5, s1.id, true); // shown at s1, nothing else
    const subjects = [
      { role: "school_user" as const, accessibleSchoolIds: [s1.id] },
      { role: "district_user" as const, accessibleSchoolIds: [s1.id, s2.id, s3.id] },
      { role: "admin" as const, accessibleSchoolIds: "all" as const },
    ];
    const schoolIds: Array<number | null> = [s1.id, s2.id, s3.id, DEMO_SCHOOL_ID, null];
    const expected = (cohort: number, school: number | null) =>
      cohort === c1 ? false : cohort === c2 ? school !== s1.id : cohort === c3 ? school === s2.id : cohort === c4 ? school !== s3.id : true;
    for (const subject of subjects) {
      for (const respectVisibility of [false, true]) {
        const scope: DataScope = await resolveScope(db, subject, { respectVisibility });
        const applies = subject.role !== "admin" || respectVisibility;
        for (const school of schoolIds) {
          for (const cohort of [c0, c1, c2, c3, c4, c5, DEMO_COHORT_ID]) {
            const result = await sql<{ visible: boolean }>`select ${cohortVisible(scope, "x.cohort", "x.school")} as visible
              from (select ${cohort}::int as cohort, ${school}::int as school) x`.execute(db);
            const js = isCohortVisible(scope, cohort, school);
            expect(result.rows[0]?.visible, `${subject.role} ${respectVisibility} school ${school} cohort ${cohort}`).toBe(js);
            const demoHidden = subject.role === "admin" && cohort === DEMO_COHORT_ID;
            const want = demoHidden ? false : applies ? expected(cohort, school) : true;
            expect(js, `${subject.role} ${respectVisibility} school ${school} cohort ${cohort}`).toBe(want);
          }
        }
      }
    }
  });
});

describe("schoolInScope (SQL) agrees with isSchoolInScope (JS)", () => {
  it("for all, list and empty scopes, with and without null schools", async () => {
    const db = database.db;
    const scopes: DataScope[] = [
      { schools: "all", excludedSchoolIds: [DEMO_SCHOOL_ID], excludedCohortIds: [], visibility: null },
      { schools: [1, 2], excludedSchoolIds: [], excludedCohortIds: [], visibility: null },
      { schools: [2], excludedSchoolIds: [], excludedCohortIds: [], visibility: null },
      { schools: [], excludedSchoolIds: [], excludedCohortIds: [], visibility: null },
    ];
    for (const scope of scopes) {
      for (const school of [1, 2, 3, DEMO_SCHOOL_ID, null]) {
        const result = await sql<{ ok: boolean }>`select ${schoolInScope(scope, "x.school", { nullable: true })} as ok
          from (select ${school}::int as school) x`.execute(db);
        expect(Boolean(result.rows[0]?.ok)).toBe(isSchoolInScope(scope, school));
      }
    }
  });
});
