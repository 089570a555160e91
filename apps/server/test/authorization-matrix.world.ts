import type { ImportCommit } from "@tally/contract";
import { seedDemo } from "../src/db/seed/demo-seed.js";
import { signOutEverywhere } from "../src/modules/users/accounts.service.js";
import { buildAlert } from "./alert-factory.js";
import { buildCohort, buildSchool, buildStudent, buildUser } from "./factories.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Files } from "./import-upload.js";
import { type LoggedIn, loginAs, type TestApp } from "./test-app.js";

/** Who calls: no token, each role of the demo seed, and two dead super admin sessions. */
export const CALLERS = ["anonymous", "school", "district", "admin", "superAdmin", "deactivated", "stale"] as const;
export type CallerKind = (typeof CALLERS)[number];

/** Which resource a route's :id (or its school filter) names: one the school user may see, one it may not, none. */
export const TARGETS = ["own", "other", "missing"] as const;
export type Target = (typeof TARGETS)[number];

/**
 * The kinds of resource a route can take; "user" ones, and the "erasable" student and cohort of
 * the erasure routes, are made afresh per cell (the routes change or remove them).
 */
export type ResourceKind = "school" | "student" | "user" | "districtUser" | "cohort" | "importBatch" | "erasableStudent" | "erasableCohort" | "alert" | "attendanceRecord";

/** A valid id that no row has. */
export const MISSING_ID = 2_147_483_000;
export const DEMO_PASSWORD = "Demo-Pass-2026!";

export interface MatrixWorld {
  sessions: Record<Exclude<CallerKind, "anonymous">, LoggedIn>;
  /** The demo school user's school (inside the district user's district). */
  ownSchoolId: number;
  /** A school outside both the school user's and the district user's schools. */
  otherSchoolId: number;
  ownStudentId: number;
  otherStudentId: number;
  cohortId: number;
  importBatchId: number;
  /** An account nobody else uses, for the public sign-in routes. */
  bystander: { id: number; username: string; email: string; password: string };
}

/**
 * The demo seed (schools in districts, students, the demo accounts), plus the week-3 import as
 * one import batch, a deactivated and a stale super admin session, and a bystander account.
 */
export async function buildMatrixWorld(t: TestApp): Promise<MatrixWorld> {
  await t.db.transaction().execute((trx) => seedDemo(trx, { password: DEMO_PASSWORD }));
  const demo = (username: string) => loginAs(t.app, { username, password: DEMO_PASSWORD });
  const school = await demo("school");
  const district = await demo("district");
  const admin = await demo("admin");
  const superAdmin = await demo("superadmin");

  const districtSchools = (await t.db.selectFrom("user_schools").select("school_id").where("user_id", "=", district.user.id).execute()).map(
    (r) => r.school_id,
  );
  const ownSchoolId = school.user.school_id ?? 0;
  const school2 = await t.db.selectFrom("users").select("school_id").where("username", "=", "school2").executeTakeFirstOrThrow();
  const otherSchoolId = school2.school_id ?? 0;
  if (!districtSchools.includes(ownSchoolId) || districtSchools.includes(otherSchoolId) || ownSchoolId === otherSchoolId) {
    throw new Error("The demo seed no longer puts school 'school' inside the district and 'school2' outside it");
  }
  const studentAt = async (schoolId: number) =>
    (await t.db.selectFrom("students").select("id").where("school_id", "=", schoolId).orderBy("id").executeTakeFirstOrThrow()).id;

  // The fixture's schools, so the week-3 import commits and leaves an import batch behind.
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  const commitWeek3 = async (cohortName: string) => {
    const res = await postImport(t, "commit", admin.headers, importForm({ ...WEEK3_NEW_COHORT, cohortName }, week3Files()));
    if (res.statusCode !== 200) throw new Error(`week-3 import failed: ${res.body}`);
    return res.json<ImportCommit>();
  };
  // One cohort for the cohort and flag routes, another whose batch the undo route may undo.
  const { cohortId } = await commitWeek3(WEEK3_NEW_COHORT.cohortName);
  const { batchId } = await commitWeek3("Matrix Undo");

  // Super admins, the strongest sessions, so a hole in the dead-session check would show.
  const deactivated = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
  await t.db.updateTable("users").set({ is_active: false }).where("id", "=", deactivated.user.id).execute();
  // Stale: signed out everywhere the way the app does it (session version bumped, refresh
  // tokens revoked), so both of its tokens are ones issued before the bump.
  const stale = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
  await signOutEverywhere(t.db, stale.user.id, "ACCOUNT_CHANGED");

  const bystander = await buildUser(t.db, { role: "school_user", schoolId: ownSchoolId });
  return {
    sessions: { school, district, admin, superAdmin, deactivated, stale },
    ownSchoolId,
    otherSchoolId,
    ownStudentId: await studentAt(ownSchoolId),
    otherStudentId: await studentAt(otherSchoolId),
    cohortId,
    importBatchId: batchId,
    bystander: { id: bystander.id, username: bystander.username, email: bystander.email, password: bystander.password },
  };
}

/** The id a cell names: fixed rows for most kinds, a new account per cell for the user routes. */
export async function resourceId(t: TestApp, world: MatrixWorld, kind: ResourceKind, target: Target): Promise<number> {
  if (target === "missing") return MISSING_ID;
  const schoolId = target === "own" ? world.ownSchoolId : world.otherSchoolId;
  switch (kind) {
    case "school":
      return schoolId;
    case "student":
      return target === "own" ? world.ownStudentId : world.otherStudentId;
    case "user":
      return (await buildUser(t.db, { role: "school_user", schoolId })).id;
    case "districtUser":
      return (await buildUser(t.db, { role: "district_user", schoolIds: [schoolId] })).id;
    // Cohorts and import batches belong to no school: "other" is the same row as "own".
    case "cohort":
      return world.cohortId;
    case "importBatch":
      return world.importBatchId;
    case "erasableStudent":
      return (await buildStudent(t.db, { schoolId })).id;
    // One of the target's student's meetings.
    case "attendanceRecord": {
      const studentId = target === "own" ? world.ownStudentId : world.otherStudentId;
      return (await t.db.selectFrom("attendance_records").select("id").where("student_id", "=", studentId).orderBy("id").executeTakeFirstOrThrow()).id;
    }
    // A fresh open alert of the target's student (the actions change it); its older live episode ends.
    case "alert": {
      const studentId = target === "own" ? world.ownStudentId : world.otherStudentId;
      await t.db.updateTable("alerts").set({ condition_ended_at: new Date() }).where("student_id", "=", studentId).where("condition_ended_at", "is", null).execute();
      return (await buildAlert(t.db, { studentId, cohortId: world.cohortId })).id;
    }
    // An ended cohort with one student (of the school user's school).
    case "erasableCohort": {
      const cohort = await buildCohort(t.db, { startDate: "2024-01-08", endDate: "2024-02-16" });
      await buildStudent(t.db, { schoolId: world.ownSchoolId, cohortIds: [cohort.id] });
      return cohort.id;
    }
  }
}
