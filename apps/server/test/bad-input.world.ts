import { type Kysely, sql } from "kysely";
import type { Database } from "../src/db/schema.js";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildTeam, buildUser } from "./factories.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Files } from "./import-upload.js";
import { type LoggedIn, loginAs, type TestApp } from "./test-app.js";

/**
 * Tables a refused request may still write to, by design: a refused sign-in is what the login
 * log and the sign-in throttle exist to record.
 */
const WRITTEN_ON_REFUSAL = new Set(["login_logs", "login_throttle"]);

const tableNames = new WeakMap<Kysely<Database>, string[]>();

/** One checksum per table (every row, as text, in order): equal maps mean unchanged data. */
export async function tableChecksums(db: Kysely<Database>): Promise<Record<string, string>> {
  // Migrations ran before the app was built: the list of tables is read once per database.
  let names = tableNames.get(db);
  if (!names) {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
       where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
    names = rows.map((r) => r.name).filter((name) => !WRITTEN_ON_REFUSAL.has(name) && !name.startsWith("kysely_"));
    tableNames.set(db, names);
  }
  const parts = names.map(
    (name) => sql`select ${name} as name, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as sum from ${sql.table(name)} r`,
  );
  const { rows } = await sql<{ name: string; sum: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/** The tables whose checksum differs between two maps. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}

/** Names that would start a spreadsheet formula, one per dangerous first character. */
export const FORMULA_NAMES = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=tab", "\r=cr", "=HYPERLINK(\"http://x\",\"y\")", "-", "+"];

export interface FuzzWorld {
  /** Two fresh sign-ins (super admin, school user) for each route, so one route's damage to its callers cannot reach another. */
  sessionsFor(routeIndex: number): { superAdmin: LoggedIn; school: LoggedIn };
  /** A super admin no fuzzed request was sent as. */
  spare: LoggedIn;
  schoolId: number;
  injectionSchoolId: number;
}

/** A small world: two schools with students and attendance, the week-3 import, and a school whose every exported cell is a formula. */
export async function buildFuzzWorld(t: TestApp, routeCount: number): Promise<FuzzWorld> {
  const school = await buildSchool(t.db, { name: "Fuzz High" });
  const cohort = await buildCohort(t.db, { name: "Fuzz Cohort", startDate: "2026-01-05", endDate: "2026-03-01" });
  const team = await buildTeam(t.db, { schoolId: school.id, cohortId: cohort.id, name: "Fuzz Team" });
  const student = await buildStudent(t.db, { schoolId: school.id, cohortIds: [cohort.id], teams: [team.id] });
  await buildAttendance(t.db, [
    { studentId: student.id, cohortId: cohort.id, schoolId: school.id, teamId: team.id, weekNumber: 1, meetingType: "mentor", status: "present" },
  ]);

  const injection = await buildSchool(t.db, { name: "=cmd|' /C calc'!A0" });
  const injectionCohort = await buildCohort(t.db, { name: "+Cohort", startDate: "2026-01-05", endDate: "2026-03-01" });
  const injectionTeam = await buildTeam(t.db, { schoolId: injection.id, cohortId: injectionCohort.id, name: "@Team" });
  for (const [i, name] of FORMULA_NAMES.entries()) {
    const s = await buildStudent(t.db, {
      schoolId: injection.id,
      firstName: name,
      lastName: FORMULA_NAMES[(i + 1) % FORMULA_NAMES.length],
      cohortIds: [injectionCohort.id],
      teams: [injectionTeam.id],
    });
    await buildAttendance(t.db, [
      { studentId: s.id, cohortId: injectionCohort.id, schoolId: injection.id, teamId: injectionTeam.id, weekNumber: 1, meetingType: "mentor", status: "late" },
    ]);
  }

  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
  const commit = await postImport(t, "commit", admin.headers, importForm(WEEK3_NEW_COHORT, week3Files()));
  if (commit.statusCode !== 200) throw new Error(`week-3 import failed: ${commit.body}`);

  // All sign-ins happen now: the sign-in routes' own fuzzing trips the per-address limit later.
  const sessions: Array<{ superAdmin: LoggedIn; school: LoggedIn }> = [];
  for (let i = 0; i < routeCount; i++) {
    sessions.push({
      superAdmin: await loginAs(t.app, await buildUser(t.db, { role: "super_admin" })),
      school: await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId: school.id })),
    });
  }
  return {
    sessionsFor: (i) => sessions[i] ?? (sessions[0] as { superAdmin: LoggedIn; school: LoggedIn }),
    spare: await loginAs(t.app, await buildUser(t.db, { role: "super_admin" })),
    schoolId: school.id,
    injectionSchoolId: injection.id,
  };
}
