import type { Role } from "@tally/contract";
import { type Insertable, type Kysely, sql } from "kysely";
import { isCommonPassword } from "../../lib/common-passwords.js";
import { hashPassword } from "../../lib/password-hash.js";
import type { Database, UsersTable } from "../schema.js";
import { buildDemoData, type DemoData, demoSeededUntil } from "./demo-data.js";

export interface DemoSignIn {
  username: string;
  role: Role;
  /** The school or schools the account sees; null for organisation-wide roles. */
  school: string | null;
  active: boolean;
}

export interface DemoSeedSummary {
  schools: number;
  districts: number;
  cohorts: number;
  teams: number;
  students: number;
  attendanceRecords: number;
  weeklyData: number;
  users: number;
}

export interface DemoSeedResult {
  summary: DemoSeedSummary;
  signIns: DemoSignIn[];
  /**
   * What the alert rules are evaluated on once the seed has committed (the seed writes no
   * alerts itself): the demo's cohorts, as of the day after their last seeded week.
   */
  alerts: { cohortIds: number[]; asOf: Date };
}

/** Thrown when the demo would mix with real data. */
export class DatabaseNotEmptyError extends Error {
  constructor() {
    super("The database already holds users, schools or students; demo data is only loaded into an empty database.");
    this.name = "DatabaseNotEmptyError";
  }
}

const BATCH_ROWS = 1000;

/** True when there are no users, schools, cohorts or students yet. */
export async function isDatabaseEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await sql<{ used: boolean }>`select
      exists (select 1 from users) or exists (select 1 from schools)
      or exists (select 1 from cohorts) or exists (select 1 from students) as used`.execute(db);
  return !row.rows[0]?.used;
}

/**
 * Loads the demo data set (schools, cohorts, teams, students, eight weeks of attendance and
 * weekly data, demo accounts sharing one password) into an empty database. Run it in a
 * transaction: it writes many tables.
 */
export async function seedDemo(db: Kysely<Database>, opts: { password: string }): Promise<DemoSeedResult> {
  if (!(await isDatabaseEmpty(db))) throw new DatabaseNotEmptyError();
  // Seven accounts share it, an admin and a super admin among them.
  if (isCommonPassword(opts.password)) throw new Error("The demo password (DEMO_PASSWORD) is too common. Please choose another.");
  const passwordHash = await hashPassword(opts.password);
  const data = buildDemoData();

  await insertBatches(db, "schools", data.schools);
  await insertBatches(db, "cohorts", data.cohorts);
  await insertBatches(db, "teams", data.teams);
  await insertBatches(db, "students", data.students);
  await insertBatches(db, "student_cohorts", data.studentCohorts);
  await insertBatches(db, "student_teams", data.studentTeams);
  // The summary triggers fire once per statement, so large batches keep them cheap too.
  await insertBatches(db, "attendance_records", data.attendance);
  await insertBatches(db, "weekly_data", data.weeklyData);
  // Rows went in with explicit ids: move the sequences past them so later inserts never collide.
  for (const table of ["schools", "cohorts", "teams", "students"] as const) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
  }
  const signIns = await insertUsers(db, data, passwordHash);

  return {
    summary: {
      schools: data.schools.length,
      districts: data.districts.length,
      cohorts: data.cohorts.length,
      teams: data.teams.length,
      students: data.students.length,
      attendanceRecords: data.attendance.length,
      weeklyData: data.weeklyData.length,
      users: signIns.length,
    },
    signIns,
    alerts: { cohortIds: data.cohorts.map((c) => c.id), asOf: new Date(`${demoSeededUntil(data.cohorts)}T12:00:00Z`) },
  };
}

interface DemoUser {
  username: string;
  role: Role;
  schoolId?: number;
  districtIndex?: number;
  active?: boolean;
}

const DEMO_USERS: DemoUser[] = [
  { username: "superadmin", role: "super_admin" },
  { username: "admin", role: "admin" },
  { username: "admin2", role: "admin" },
  { username: "district", role: "district_user", districtIndex: 0 },
  { username: "school", role: "school_user", schoolId: 1 },
  { username: "school2", role: "school_user", schoolId: 5 },
  { username: "demo", role: "school_user", schoolId: 123 },
  { username: "inactive", role: "school_user", schoolId: 2, active: false },
];

async function insertUsers(db: Kysely<Database>, data: DemoData, passwordHash: string): Promise<DemoSignIn[]> {
  const schoolName = (id: number) => data.schools.find((s) => s.id === id)?.name ?? `School ${id}`;
  const signIns: DemoSignIn[] = [];
  for (const u of DEMO_USERS) {
    const row: Insertable<UsersTable> = {
      username: u.username,
      email: `${u.username}@tally.demo`,
      password_hash: passwordHash,
      role: u.role,
      school_id: u.schoolId ?? null,
      is_active: u.active ?? true,
      email_verified: true,
    };
    const { id } = await db.insertInto("users").values(row).returning("id").executeTakeFirstOrThrow();
    let school = u.schoolId === undefined ? null : schoolName(u.schoolId);
    if (u.districtIndex !== undefined) {
      const district = data.districts[u.districtIndex];
      if (!district) throw new Error(`Demo district ${u.districtIndex} is missing`);
      await db
        .insertInto("user_schools")
        .values(district.schoolIds.map((schoolId) => ({ user_id: id, school_id: schoolId })))
        .execute();
      school = `${district.schoolIds.length} schools of ${district.name}`;
    }
    signIns.push({ username: u.username, role: u.role, school, active: u.active ?? true });
  }
  return signIns;
}

type TableName = keyof Database & string;

async function insertBatches<T extends TableName>(db: Kysely<Database>, table: T, rows: ReadonlyArray<Insertable<Database[T]>>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    // The generic table name defeats Kysely's per-table value typing; the caller's rows are typed.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + BATCH_ROWS) as never)
      .execute();
  }
}
