import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generatePassword } from "@tally/contract";
import { type Kysely, sql } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../schema.js";
import { type DemoSeedResult, isDatabaseEmpty, seedDemo } from "./demo-seed.js";

const CREATE_FIRST_ADMIN = "npm run cli -- create-user --username NAME --email ADDRESS --role super_admin";

// Any fixed number: instances starting together on one PostgreSQL seed only once.
const DEMO_SEED_LOCK = 74_110_123;

export function demoCredentialsFile(dataDir: string): string {
  return join(dataDir, "demo-credentials.txt");
}

/** What the demo seeding reads of the configuration. */
export type DemoSeedConfig = Pick<Config, "dataDir" | "demoSeed" | "demoPassword">;

export interface LoadedDemo {
  result: DemoSeedResult;
  /** Set when the password was generated (it is then also in the credentials file). */
  generatedPassword?: string;
  credentialsFile?: string;
  seconds: number;
}

/**
 * What runs once the demo has committed, given what was seeded; the lines it returns are
 * printed. The server and the CLI evaluate the demo's alerts here (db/ knows no module).
 */
export type AfterDemoSeed = (seeded: DemoSeedResult) => Promise<string[]>;

/**
 * Seeds the demo data into an empty database when DEMO_SEED allows it and prints the demo
 * sign-ins. Does nothing on a database that already has users.
 */
export async function seedDemoOnFirstRun(
  db: Kysely<Database>,
  config: DemoSeedConfig,
  print: (line: string) => void,
  afterSeed?: AfterDemoSeed,
): Promise<void> {
  const file = demoCredentialsFile(config.dataDir);
  const users = await db.selectFrom("users").select("id").limit(1).execute();
  if (users.length > 0) {
    if (existsSync(file)) print(`Demo sign-ins: see ${file}`);
    return;
  }
  if (!config.demoSeed) {
    print(`No accounts yet. Create the first super admin with: ${CREATE_FIRST_ADMIN}`);
    return;
  }
  const loaded = await loadDemoIntoEmptyDatabase(db, config);
  if (!loaded) {
    print("Demo data not loaded: the database has schools or students but no users. Create an account with: npm run cli -- create-user --help");
    return;
  }
  for (const line of describeLoadedDemo(loaded)) print(line);
  for (const line of await runAfterSeed(loaded.result, afterSeed)) print(line);
}

/** The after-seed step; a failure is told, never fatal: the demo is loaded either way. */
export async function runAfterSeed(seeded: DemoSeedResult, afterSeed: AfterDemoSeed | undefined): Promise<string[]> {
  if (!afterSeed) return [];
  try {
    return await afterSeed(seeded);
  } catch (err) {
    return [`The demo's alerts could not be evaluated (${err instanceof Error ? err.message : String(err)}); the next import or rule change evaluates them.`];
  }
}

/**
 * Seeds the demo in one transaction, with the configured or a generated password. Returns
 * undefined (and writes nothing) when the database is not empty.
 */
export async function loadDemoIntoEmptyDatabase(db: Kysely<Database>, config: Omit<DemoSeedConfig, "demoSeed">): Promise<LoadedDemo | undefined> {
  const started = performance.now();
  const password = config.demoPassword ?? generatePassword();
  const generatedPassword = config.demoPassword ? undefined : password;
  const file = demoCredentialsFile(config.dataDir);
  const result = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK})`.execute(trx);
    if (!(await isDatabaseEmpty(trx))) return undefined;
    const seeded = await seedDemo(trx, { password });
    // Written before the commit: if the file cannot be written, no account is left without a known password.
    if (generatedPassword) writeCredentials(file, seeded, generatedPassword);
    return seeded;
  });
  if (!result) return undefined;
  return {
    result,
    generatedPassword,
    credentialsFile: generatedPassword ? file : undefined,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The console lines announcing the demo: what was loaded and how to sign in. */
export function describeLoadedDemo(loaded: LoadedDemo): string[] {
  const { summary } = loaded.result;
  const lines = [
    `Demo data loaded in ${loaded.seconds.toFixed(1)} s: ${summary.schools} schools, ${summary.cohorts} cohorts, ` +
      `${summary.teams} teams, ${summary.students} students, ${summary.attendanceRecords} attendance records.`,
    loaded.generatedPassword
      ? `Demo sign-ins (password for all: ${loaded.generatedPassword}):`
      : "Demo sign-ins (password for all: the DEMO_PASSWORD you set):",
    ...signInTable(loaded.result).map((row) => `  ${row}`),
  ];
  if (loaded.credentialsFile) lines.push(`These sign-ins are saved in ${loaded.credentialsFile} (readable only by you).`);
  return lines;
}

function signInTable(result: DemoSeedResult): string[] {
  const width = Math.max(...result.signIns.map((s) => s.username.length)) + 2;
  return result.signIns.map((s) => {
    const where = s.school ?? "all schools";
    const note = s.active ? "" : " (inactive: its sign-in is refused)";
    return `${s.username.padEnd(width)}${s.role.padEnd(15)}${where}${note}`;
  });
}

function writeCredentials(file: string, result: DemoSeedResult, password: string): void {
  const text = [
    "Tally demo sign-ins",
    "",
    `Password for every account: ${password}`,
    "",
    ...signInTable(result),
    "",
    "Change these passwords, or start with an empty database, before real data goes in.",
    "",
  ].join("\n");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  // mode only applies when the file is created; an older file keeps its permissions otherwise.
  chmodSync(file, 0o600);
}
