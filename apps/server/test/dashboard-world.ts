import { DEMO_COHORT_ID, DEMO_SCHOOL_ID, DEMO_SETTINGS_DEFAULTS, type DemoToggles, type Role } from "@tally/contract";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { afterAll, beforeAll } from "vitest";
import type { AttendanceStatus, Database, MeetingType } from "../src/db/schema.js";
import {
  type AttendanceInput,
  buildAttendance,
  buildCohort,
  buildSchool,
  buildSchoolWithId,
  buildStudent,
  buildTeam,
  buildUser,
  buildWeeklyData,
  setCohortVisibility,
  setSetting,
} from "./factories.js";
import { filledBeforeAll } from "./filled-before-all.js";
import { createTestApp, loginAs, type TestApp, type TestAppOptions } from "./test-app.js";

/**
 * A small multi-school world for the dashboard API tests:
 * - schools A, B, C and the demo school (123);
 * - cohorts: open (no visibility row), hiddenAll (hidden for all schools), hiddenAtA (hidden
 *   only at A), shownAtB (hidden for all but shown at B), demo (id 6), future (runs later);
 * - students at each school, one whose cohorts are all hidden at A, one without a cohort,
 *   one without a school, one in the demo school and one only in the demo cohort;
 * - users of every role; attendance over four weeks for both meeting types.
 */
async function buildDashboardWorld(db: Kysely<Database>) {
  const schoolA = await buildSchool(db, { name: "Alder High" });
  const schoolB = await buildSchool(db, { name: "Birch Academy" });
  const schoolC = await buildSchool(db, { name: "Cedar College" });
  const demoSchool = await buildSchoolWithId(db, DEMO_SCHOOL_ID, "Demo School");

  const demo = await buildCohort(db, { id: DEMO_COHORT_ID, name: "Demo Cohort" });
  const open = await buildCohort(db, { name: "Spring Open", startDate: "2025-01-06", endDate: "2025-03-28" });
  const hiddenAll = await buildCohort(db, { name: "Hidden Everywhere", startDate: "2024-09-02", endDate: "2024-10-25" });
  const hiddenAtA = await buildCohort(db, { name: "Hidden At Alder", startDate: "2025-02-03", endDate: "2025-03-14" });
  const shownAtB = await buildCohort(db, { name: "Shown At Birch", startDate: "2024-11-04", endDate: "2024-12-13" });
  const future = await buildCohort(db, { name: "Autumn Future", startDate: "2030-09-01", endDate: "2030-10-31" });
  await setCohortVisibility(db, hiddenAll.id, null, false);
  await setCohortVisibility(db, hiddenAtA.id, schoolA.id, false);
  await setCohortVisibility(db, shownAtB.id, null, false);
  await setCohortVisibility(db, shownAtB.id, schoolB.id, true);
  await setCohortVisibility(db, open.id, null, true);

  const team = (schoolId: number, cohortId: number, name: string) =>
    buildTeam(db, {
      schoolId,
      cohortId,
      name,
      organizationDescription: `${name} organisation`,
      projectDescription: `${name} project`,
      startDate: "2025-01-06",
    });
  const teams = {
    a1: await team(schoolA.id, open.id, "Alder Falcons"),
    a2: await team(schoolA.id, open.id, "Alder Hawks"),
    aHidden: await team(schoolA.id, hiddenAtA.id, "Alder Secret"),
    aHiddenAll: await team(schoolA.id, hiddenAll.id, "Alder Shadow"),
    aDemo: await team(schoolA.id, demo.id, "Alder Demo Team"),
    b1: await team(schoolB.id, open.id, "Birch Otters"),
    bHiddenAtA: await team(schoolB.id, hiddenAtA.id, "Birch Lynx"),
    bShown: await team(schoolB.id, shownAtB.id, "Birch Owls"),
    c1: await team(schoolC.id, open.id, "Cedar Wolves"),
    cShownAtB: await team(schoolC.id, shownAtB.id, "Cedar Moles"),
    demo: await team(demoSchool.id, demo.id, "Demo Team"),
  };

  const students = {
    // Moved from Falcons to Hawks: Hawks is the active team, Falcons a previous team.
    aMover: await buildStudent(db, {
      schoolId: schoolA.id, firstName: "Ada", lastName: "Archer", cohortIds: [open.id], teams: [teams.a1.id, teams.a2.id],
    }),
    aTwoCohorts: await buildStudent(db, {
      schoolId: schoolA.id, firstName: "Ben", lastName: "Baker", cohortIds: [open.id, hiddenAtA.id], teams: [teams.a1.id, teams.aHidden.id],
    }),
    aAllHidden: await buildStudent(db, {
      schoolId: schoolA.id, firstName: "Cleo", lastName: "Carter", cohortIds: [hiddenAll.id, hiddenAtA.id], teams: [teams.aHiddenAll.id],
    }),
    aNoCohort: await buildStudent(db, { schoolId: schoolA.id, firstName: "Dan", lastName: "Dunn" }),
    aDemoCohort: await buildStudent(db, {
      schoolId: schoolA.id, firstName: "Eve", lastName: "Ellis", cohortIds: [demo.id], teams: [teams.aDemo.id],
    }),
    bOpen: await buildStudent(db, {
      schoolId: schoolB.id, firstName: "Finn", lastName: "Fox", cohortIds: [open.id, hiddenAtA.id], teams: [teams.bHiddenAtA.id, teams.b1.id],
    }),
    bShown: await buildStudent(db, {
      schoolId: schoolB.id, firstName: "Gus", lastName: "Green", cohortIds: [shownAtB.id], teams: [teams.bShown.id],
    }),
    cOpen: await buildStudent(db, {
      schoolId: schoolC.id, firstName: "Hana", lastName: "Hill", cohortIds: [open.id], teams: [teams.c1.id],
    }),
    cShownAtB: await buildStudent(db, {
      schoolId: schoolC.id, firstName: "Ivo", lastName: "Irwin", cohortIds: [shownAtB.id], teams: [teams.cShownAtB.id],
    }),
    noSchool: await buildStudent(db, { schoolId: null, firstName: "Jo", lastName: "Jones", cohortIds: [open.id] }),
    demo: await buildStudent(db, {
      schoolId: demoSchool.id, firstName: "Kim", lastName: "Demo", cohortIds: [demo.id], teams: [teams.demo.id],
    }),
  };

  // Attendance: a deterministic spread of statuses per student, week and meeting type.
  const statuses: AttendanceStatus[] = ["present", "present", "late", "absent", "present", "late", "absent"];
  const records: AttendanceInput[] = [];
  let n = 0;
  const attend = (studentId: number, schoolId: number, cohortId: number, teamId: number, weeks: number[]) => {
    for (const week of weeks) {
      for (const meetingType of ["mentor", "advisor"] as MeetingType[]) {
        n += 1;
        const status = statuses[(n * 5 + week) % statuses.length] as AttendanceStatus;
        records.push({
          studentId, schoolId, cohortId, teamId, weekNumber: week, meetingType, status,
          date: dateFor(cohortId, week, meetingType),
        });
      }
    }
  };
  attend(students.aMover.id, schoolA.id, open.id, teams.a1.id, [1, 2]);
  attend(students.aMover.id, schoolA.id, open.id, teams.a2.id, [3, 4]);
  attend(students.aTwoCohorts.id, schoolA.id, open.id, teams.a1.id, [1, 2, 3, 4]);
  attend(students.aTwoCohorts.id, schoolA.id, hiddenAtA.id, teams.aHidden.id, [1, 2, 3]);
  attend(students.aAllHidden.id, schoolA.id, hiddenAll.id, teams.aHiddenAll.id, [1, 2]);
  attend(students.aNoCohort.id, schoolA.id, open.id, 0, [2]);
  attend(students.aDemoCohort.id, schoolA.id, demo.id, teams.aDemo.id, [1, 2, 3]);
  attend(students.bOpen.id, schoolB.id, open.id, teams.b1.id, [1, 2, 3, 4]);
  attend(students.bOpen.id, schoolB.id, hiddenAtA.id, teams.bHiddenAtA.id, [1, 2]);
  attend(students.bShown.id, schoolB.id, shownAtB.id, teams.bShown.id, [1, 2, 3]);
  attend(students.cOpen.id, schoolC.id, open.id, teams.c1.id, [1, 3, 4]);
  attend(students.cShownAtB.id, schoolC.id, shownAtB.id, teams.cShownAtB.id, [2, 3]);
  attend(students.demo.id, demoSchool.id, demo.id, teams.demo.id, [1, 2, 3, 4]);
  await buildAttendance(db, records);

  await buildWeeklyData(db, [
    { studentId: students.aTwoCohorts.id, cohortId: open.id, weekNumber: 2, reflection: "Week two went well", advisorNotes: "Keep going", hoursReported: 12.5, flags: [{ code: "LOW_HOURS", text: "Low hours" }] },
    { studentId: students.aTwoCohorts.id, cohortId: open.id, weekNumber: 1, reflection: "First week", hoursReported: 10 },
    { studentId: students.aTwoCohorts.id, cohortId: hiddenAtA.id, weekNumber: 1, reflection: "Hidden cohort week" },
    { studentId: students.bOpen.id, cohortId: open.id, weekNumber: 1, reflection: "Birch week one" },
    { studentId: students.demo.id, cohortId: demo.id, weekNumber: 1, reflection: "Demo week" },
  ]);

  const user = (role: Role, extra: { schoolId?: number; schoolIds?: number[] } = {}) => buildUser(db, { role, ...extra });
  const users = {
    superAdmin: await user("super_admin"),
    admin: await user("admin"),
    districtAB: await user("district_user", { schoolIds: [schoolA.id, schoolB.id] }),
    districtNone: await user("district_user", { schoolIds: [] }),
    schoolA: await user("school_user", { schoolId: schoolA.id }),
    schoolB: await user("school_user", { schoolId: schoolB.id }),
  };

  return {
    schools: { a: schoolA, b: schoolB, c: schoolC, demo: demoSchool },
    cohorts: { open, hiddenAll, hiddenAtA, shownAtB, demo, future },
    teams,
    students,
    records,
    users,
  };
}

/** Distinct per cohort, week and meeting type, so records never collide on (student, date, type). */
function dateFor(cohortId: number, week: number, type: MeetingType): string {
  return new Date(Date.UTC(2025, 0, 6 + cohortId * 100 + (week - 1) * 7 + (type === "mentor" ? 0 : 2))).toISOString().slice(0, 10);
}

export type DashboardWorld = Awaited<ReturnType<typeof buildDashboardWorld>>;
export type WorldUserKey = keyof DashboardWorld["users"];

/** Each world user's bearer header. */
export type WorldHeaders = Record<WorldUserKey, { authorization: string }>;

async function signInWorld(app: FastifyInstance, world: DashboardWorld): Promise<WorldHeaders> {
  const entries = await Promise.all(
    Object.entries(world.users).map(async ([key, u]) => [key, (await loginAs(app, u)).headers] as const),
  );
  return Object.fromEntries(entries) as WorldHeaders;
}

/**
 * For the dashboard API tests: a migrated app holding the dashboard world, every world user
 * signed in, all built in beforeAll and closed in afterAll.
 */
export function useDashboardWorld(options?: TestAppOptions): { t: TestApp; w: DashboardWorld; as: WorldHeaders } {
  const t = filledBeforeAll(() => createTestApp(options));
  const w = filledBeforeAll(() => buildDashboardWorld(t.db));
  const as = filledBeforeAll(() => signInWorld(t.app, w));
  afterAll(() => t.close?.());
  return { t, w, as };
}

/**
 * The visibility rule written out independently of the server code, for expectations:
 * the school's own row wins, then the all-schools row, else visible; admins see all but the demo.
 */
export function expectedVisible(world: DashboardWorld, cohortId: number, schoolId: number | null, asAdmin: boolean): boolean {
  if (asAdmin) return cohortId !== DEMO_COHORT_ID;
  const { cohorts, schools } = world;
  if (cohortId === cohorts.hiddenAll.id) return false;
  if (cohortId === cohorts.hiddenAtA.id) return schoolId !== schools.a.id;
  if (cohortId === cohorts.shownAtB.id) return schoolId === schools.b.id;
  return true;
}

/**
 * The demo toggles for the tests of the enclosing describe: stored in its beforeAll, back to the
 * defaults in its afterAll.
 */
export function useDemoToggles(t: TestApp, toggles: Partial<DemoToggles>): void {
  beforeAll(() => setSetting(t.db, "demo", { ...DEMO_SETTINGS_DEFAULTS, ...toggles }));
  afterAll(() => t.db.deleteFrom("settings").where("key", "=", "demo").execute());
}
