import type { Role } from "@tally/contract";
import { type Kysely, sql } from "kysely";
import type {
  AttendanceStatus,
  Cohort,
  Database,
  MeetingType,
  School,
  Student,
  Team,
  User,
  WeeklyFlag,
} from "../src/db/schema.js";
import { hashPassword } from "../src/lib/password-hash.js";

// Rows go straight into the tables, not through the services, so a test can set up states
// the API would refuse (hidden cohorts, fixed ids, old history) and not depend on the code it tests.

let sequence = 0;
const next = () => `${process.pid}-${++sequence}`;

/** Strong enough for the set-password rules (score 5 of 5). */
export const DEFAULT_PASSWORD = "Correct-Horse-7";
let defaultHash: Promise<string> | undefined;

export async function buildSchool(
  db: Kysely<Database>,
  overrides: Partial<Pick<School, "name" | "district">> = {},
): Promise<School> {
  return db
    .insertInto("schools")
    .values({ name: overrides.name ?? `School ${next()}`, district: overrides.district ?? "" })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BuildUserOptions {
  role: Role;
  password?: string;
  username?: string;
  email?: string;
  /** school_user: defaults to a new school. */
  schoolId?: number;
  /** district_user: rows in user_schools. */
  schoolIds?: number[];
  isActive?: boolean;
  emailVerified?: boolean;
}

export type BuiltUser = User & { password: string; schoolIds: number[] };

/** A user row plus the plain password it was created with. */
export async function buildUser(db: Kysely<Database>, options: BuildUserOptions): Promise<BuiltUser> {
  const id = next();
  const password = options.password ?? DEFAULT_PASSWORD;
  // argon2 is deliberately slow: hash the common default once per test file.
  const passwordHash =
    options.password === undefined ? await (defaultHash ??= hashPassword(DEFAULT_PASSWORD)) : await hashPassword(password);
  const schoolId =
    options.role === "school_user" ? (options.schoolId ?? (await buildSchool(db)).id) : (options.schoolId ?? null);
  const schoolIds = options.role === "district_user" ? (options.schoolIds ?? []) : [];
  const user = await db
    .insertInto("users")
    .values({
      username: options.username ?? `user-${id}`,
      email: options.email ?? `user-${id}@example.test`,
      password_hash: passwordHash,
      role: options.role,
      school_id: schoolId,
      is_active: options.isActive ?? true,
      email_verified: options.emailVerified ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (schoolIds.length > 0) {
    await db
      .insertInto("user_schools")
      .values(schoolIds.map((school_id) => ({ user_id: user.id, school_id })))
      .execute();
  }
  return { ...user, password, schoolIds };
}

/** Keeps a serial column's sequence past rows inserted with explicit ids. */
async function bumpSequence(db: Kysely<Database>, table: "schools" | "cohorts"): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
}

/** A school with a chosen id (e.g. the demo school, 123). */
export async function buildSchoolWithId(db: Kysely<Database>, id: number, name = `School ${next()}`): Promise<School> {
  const school = await db.insertInto("schools").values({ id, name, district: "" } as never).returningAll().executeTakeFirstOrThrow();
  await bumpSequence(db, "schools");
  return school;
}

export interface BuildCohortOptions {
  id?: number;
  name?: string;
  programType?: string;
  startDate?: string;
  endDate?: string;
  totalExpectedHours?: number | null;
}

export async function buildCohort(db: Kysely<Database>, options: BuildCohortOptions = {}): Promise<Cohort> {
  const values = {
    name: options.name ?? `Cohort ${next()}`,
    program_type: options.programType ?? "Internship (6 week)",
    start_date: options.startDate ?? "2025-01-06",
    end_date: options.endDate ?? "2025-02-14",
    total_expected_hours: options.totalExpectedHours ?? 120,
    ...(options.id !== undefined ? { id: options.id } : {}),
  };
  const cohort = await db.insertInto("cohorts").values(values as never).returningAll().executeTakeFirstOrThrow();
  if (options.id !== undefined) await bumpSequence(db, "cohorts");
  return cohort;
}

export interface BuildTeamOptions {
  schoolId: number;
  cohortId: number;
  name?: string;
  organizationDescription?: string | null;
  projectDescription?: string | null;
  startDate?: string | null;
}

export async function buildTeam(db: Kysely<Database>, options: BuildTeamOptions): Promise<Team> {
  return db
    .insertInto("teams")
    .values({
      name: options.name ?? `Team ${next()}`,
      school_id: options.schoolId,
      cohort_id: options.cohortId,
      organization_description: options.organizationDescription ?? null,
      project_description: options.projectDescription ?? null,
      start_date: options.startDate ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BuildStudentOptions {
  schoolId: number | null;
  firstName?: string;
  lastName?: string;
  email?: string | null;
  /** Rows in student_cohorts. */
  cohortIds?: number[];
  /** Rows in student_teams, oldest first; joined one day apart unless joinedAt is given. */
  teams?: Array<number | { teamId: number; joinedAt: Date | string }>;
}

export type BuiltStudent = Student & { cohortIds: number[]; teamIds: number[] };

export async function buildStudent(db: Kysely<Database>, options: BuildStudentOptions): Promise<BuiltStudent> {
  const id = next();
  const student = await db
    .insertInto("students")
    .values({
      first_name: options.firstName ?? `First${id}`,
      last_name: options.lastName ?? `Last${id}`,
      email: options.email === undefined ? `student-${id}@example.test` : options.email,
      school_id: options.schoolId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const cohortIds = options.cohortIds ?? [];
  if (cohortIds.length > 0) {
    await db
      .insertInto("student_cohorts")
      .values(cohortIds.map((cohort_id) => ({ student_id: student.id, cohort_id })))
      .execute();
  }
  const teams = (options.teams ?? []).map((t, i) =>
    typeof t === "number" ? { teamId: t, joinedAt: new Date(Date.UTC(2025, 0, 1 + i)) } : t,
  );
  if (teams.length > 0) {
    await db
      .insertInto("student_teams")
      .values(teams.map((t) => ({ student_id: student.id, team_id: t.teamId, joined_at: t.joinedAt })))
      .execute();
  }
  return { ...student, cohortIds, teamIds: teams.map((t) => t.teamId) };
}

export interface AttendanceInput {
  studentId: number;
  cohortId: number;
  schoolId: number;
  /** 0 = no team. */
  teamId?: number;
  weekNumber: number;
  /** Defaults to a distinct date per week. */
  date?: string;
  meetingType: MeetingType;
  status: AttendanceStatus;
}

/** Inserts attendance rows in one statement (the summary triggers run once). */
export async function buildAttendance(db: Kysely<Database>, rows: AttendanceInput[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    student_id: r.studentId,
    cohort_id: r.cohortId,
    school_id: r.schoolId,
    team_id: r.teamId ?? 0,
    week_number: r.weekNumber,
    date: r.date ?? dateOfWeek(r.weekNumber),
    meeting_type: r.meetingType,
    status: r.status,
  }));
  for (let i = 0; i < values.length; i += 2000) {
    await db.insertInto("attendance_records").values(values.slice(i, i + 2000)).execute();
  }
}

/** Monday of a programme week counted from 2025-01-06. */
export function dateOfWeek(week: number, dayOffset = 0): string {
  return new Date(Date.UTC(2025, 0, 6 + (week - 1) * 7 + dayOffset)).toISOString().slice(0, 10);
}

export interface WeeklyDataInput {
  studentId: number;
  cohortId: number;
  weekNumber: number;
  weekStart?: string | null;
  flags?: WeeklyFlag[];
  reflection?: string | null;
  advisorNotes?: string | null;
  hoursReported?: number | null;
}

export async function buildWeeklyData(db: Kysely<Database>, rows: WeeklyDataInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("weekly_data")
    .values(
      rows.map((r) => ({
        student_id: r.studentId,
        cohort_id: r.cohortId,
        week_number: r.weekNumber,
        week_start: r.weekStart === undefined ? dateOfWeek(r.weekNumber) : r.weekStart,
        flags: JSON.stringify(r.flags ?? []),
        reflection: r.reflection ?? null,
        advisor_notes: r.advisorNotes ?? null,
        hours_reported: r.hoursReported ?? null,
      })),
    )
    .execute();
}

/** One cohort_visibility row (schoolId null = all schools). */
export async function setCohortVisibility(
  db: Kysely<Database>,
  cohortId: number,
  schoolId: number | null,
  isVisible: boolean,
): Promise<void> {
  await db.insertInto("cohort_visibility").values({ cohort_id: cohortId, school_id: schoolId, is_visible: isVisible }).execute();
}

/** Stores a settings value (e.g. key 'features'). */
export async function setSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  await db
    .insertInto("settings")
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}
