import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testConfig } from "@tally/server/config";
import { type DatabaseHandle, openDatabase } from "@tally/server/db/connection";
import { migrateToLatest } from "@tally/server/db/migrate";
import { loadDemoIntoEmptyDatabase } from "@tally/server/db/seed/first-run";
import { seedLarge } from "@tally/server/db/seed/large-seed";
import { hashPassword } from "@tally/server/lib/password-hash";
import { sql } from "kysely";
import pg from "pg";

export const BENCH_STUDENTS = 50_000;
/** Every bench account (and the demo accounts) signs in with this. */
export const BENCH_PASSWORD = "Bench-Passw0rd!";
export const BENCH_USERS = { admin: "bench-admin", school: "bench-school", district: "bench-district" } as const;

/** What the benchmarks pick their requests from. */
export interface BenchWorld {
  /** The ten schools of the district user; the first is the school user's. */
  schoolIds: number[];
  cohortId: number;
  /** Students of the school user's school, for the detail calls. */
  studentIds: number[];
}

const MARKER = "bench-seeded.json";

/**
 * The embedded database under dataDir (a DATA_DIR the server can start on too): demo data,
 * then the large set on top, then the bench users. Seeded once; later runs reuse it. A folder
 * without the marker (an interrupted seed) is wiped and seeded again.
 */
export async function openEmbeddedBenchDatabase(dataDir: string, log: (line: string) => void): Promise<DatabaseHandle> {
  const seeded = existsSync(join(dataDir, MARKER));
  if (!seeded && existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir: join(dataDir, "pglite") });
  await migrateToLatest(database.db);
  if (!seeded) {
    await seedEverything(database, dataDir, log);
    writeFileSync(join(dataDir, MARKER), `${JSON.stringify({ students: BENCH_STUDENTS, at: new Date().toISOString() })}\n`);
  }
  return database;
}

/** The PostgreSQL database at url, created and seeded on first use. */
export async function openPostgresBenchDatabase(url: string, log: (line: string) => void): Promise<DatabaseHandle> {
  await createDatabaseIfMissing(url, log);
  const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
  await migrateToLatest(database.db);
  const done = await database.db.selectFrom("users").select("id").where("username", "=", BENCH_USERS.district).executeTakeFirst();
  if (!done) {
    const users = await database.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
    if (users) throw new Error(`${url} has users but no bench data: point BENCH_DATABASE_URL at an empty or bench-only database.`);
    await seedEverything(database, undefined, log);
  }
  return database;
}

async function createDatabaseIfMissing(url: string, log: (line: string) => void): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!name) throw new Error("BENCH_DATABASE_URL must name a database, e.g. postgres://postgres@127.0.0.1:5432/tally_bench");
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) {
      log(`creating database ${name}`);
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

async function seedEverything(database: DatabaseHandle, dataDir: string | undefined, log: (line: string) => void): Promise<void> {
  const db = database.db;
  const started = performance.now();
  log(`seeding ${database.engine}: demo data, then ${BENCH_STUDENTS.toLocaleString("en")} students (about a minute)`);
  const config = testConfig({ dataDir: dataDir ?? "/nonexistent", demoPassword: BENCH_PASSWORD });
  await loadDemoIntoEmptyDatabase(db, config);
  const summary = await seedLarge(db, { students: BENCH_STUDENTS, onProgress: (step) => log(`  ${step}`) });
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const world = await pickWorld(database);
  const [school, ...others] = world.schoolIds;
  const base = { password_hash: passwordHash, is_active: true, email_verified: true };
  await db
    .insertInto("users")
    .values([
      { ...base, username: BENCH_USERS.admin, email: "bench-admin@bench.tally.test", role: "admin", school_id: null },
      { ...base, username: BENCH_USERS.school, email: "bench-school@bench.tally.test", role: "school_user", school_id: school ?? null },
      { ...base, username: BENCH_USERS.district, email: "bench-district@bench.tally.test", role: "district_user", school_id: null },
    ])
    .execute();
  const district = await db.selectFrom("users").select("id").where("username", "=", BENCH_USERS.district).executeTakeFirstOrThrow();
  await db
    .insertInto("user_schools")
    .values([school, ...others].filter((s) => s !== undefined).map((school_id) => ({ user_id: district.id, school_id })))
    .execute();
  await sql`vacuum (analyze)`.execute(db);
  log(`seeded ${summary.students} students, ${summary.attendanceRecords} attendance rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Ten schools of the large set (the district), a cohort and the first school's students. */
export async function pickWorld(database: DatabaseHandle): Promise<BenchWorld> {
  const db = database.db;
  const schools = await db
    .selectFrom("schools")
    .select("id")
    .where(sql<boolean>`exists (select 1 from students s where s.school_id = schools.id and s.email like '%@synthetic.tally.demo')`)
    .orderBy("id")
    .limit(10)
    .execute();
  const schoolIds = schools.map((s) => s.id);
  const first = schoolIds[0];
  if (first === undefined) throw new Error("no large-seed schools found");
  const cohort = await db
    .selectFrom("cohorts")
    .select("id")
    .where("name", "like", "Benchmark Cohort%")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const students = await db.selectFrom("students").select("id").where("school_id", "=", first).orderBy("id").limit(500).execute();
  return { schoolIds, cohortId: cohort.id, studentIds: students.map((s) => s.id) };
}

/** The marker's text, for the report header. */
export function seededAt(dataDir: string): string | undefined {
  const file = join(dataDir, MARKER);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { at: string }).at : undefined;
}
