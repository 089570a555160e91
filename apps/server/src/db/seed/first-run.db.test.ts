import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openTestDatabase } from "../../../test/test-app.js";
import { type Config, testConfig, testDatabaseUrl } from "../../config.js";
import { verifyPassword } from "../../lib/password-hash.js";
import type { DatabaseHandle } from "../connection.js";
import { demoCredentialsFile, seedDemoOnFirstRun } from "./first-run.js";

describe("seedDemoOnFirstRun", () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  let dataDir: string;

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase());
    dataDir = mkdtempSync(join(tmpdir(), "tally-first-run-"));
  });
  afterEach(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const configWith = (overrides: Partial<Config>): Config => testConfig({ databaseUrl: testDatabaseUrl(), dataDir, ...overrides });
  const userCount = async () => (await database.db.selectFrom("users").select("id").execute()).length;
  const studentCount = async () => (await database.db.selectFrom("students").select("id").execute()).length;

  test("seeds once with a generated password kept in demo-credentials.txt, then does nothing", async () => {
    const config = configWith({ demoSeed: true });
    const lines: string[] = [];
    await seedDemoOnFirstRun(database.db, config, (l) => lines.push(l));

    const file = demoCredentialsFile(dataDir);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, "utf8");
    const password = /Password for every account: (\S+)/.exec(text)?.[1] ?? "";
    expect(password).toHaveLength(12);
    const admin = await database.db.selectFrom("users").select("password_hash").where("username", "=", "superadmin").executeTakeFirstOrThrow();
    expect(await verifyPassword(admin.password_hash, password)).toBe(true);
    for (const name of ["superadmin", "admin", "district", "school"]) expect(text).toContain(name);

    const printed = lines.join("\n");
    expect(printed).toContain(password);
    expect(printed).toMatch(/superadmin\s+super_admin/);
    expect(printed).toMatch(/district\s+district_user\s+4 schools/);
    expect(printed).toContain(file);

    const users = await userCount();
    const students = await studentCount();
    expect(users).toBeGreaterThanOrEqual(4);

    const again: string[] = [];
    await seedDemoOnFirstRun(database.db, config, (l) => again.push(l));
    expect(await userCount()).toBe(users);
    expect(await studentCount()).toBe(students);
    expect(again).toEqual([`Demo sign-ins: see ${file}`]);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  test("uses DEMO_PASSWORD without writing or printing it", async () => {
    const lines: string[] = [];
    await seedDemoOnFirstRun(database.db, configWith({ demoSeed: true, demoPassword: "Configured-Demo-1" }), (l) => lines.push(l));
    expect(existsSync(demoCredentialsFile(dataDir))).toBe(false);
    expect(lines.join("\n")).not.toContain("Configured-Demo-1");
    expect(lines.join("\n")).toContain("DEMO_PASSWORD");
    const user = await database.db.selectFrom("users").select("password_hash").where("username", "=", "school").executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, "Configured-Demo-1")).toBe(true);

    const again: string[] = [];
    await seedDemoOnFirstRun(database.db, configWith({ demoSeed: true, demoPassword: "Configured-Demo-1" }), (l) => again.push(l));
    expect(again).toEqual([]);
  });

  test("leaves the database empty when DEMO_SEED is off and says how to create the first super admin", async () => {
    const lines: string[] = [];
    await seedDemoOnFirstRun(database.db, configWith({ demoSeed: false }), (l) => lines.push(l));
    expect(await userCount()).toBe(0);
    expect(await studentCount()).toBe(0);
    // Nothing secret to print; only how to make the first account (the production default).
    expect(lines).toEqual([expect.stringContaining("create-user --username NAME --email ADDRESS --role super_admin")]);
  });

  test("does not mix the demo into data that has no users yet", async () => {
    await database.db.insertInto("schools").values({ name: "Real School", district: "Real" }).execute();
    const lines: string[] = [];
    await seedDemoOnFirstRun(database.db, configWith({ demoSeed: true }), (l) => lines.push(l));
    expect(await userCount()).toBe(0);
    expect(existsSync(demoCredentialsFile(dataDir))).toBe(false);
    expect(lines.join("\n")).toContain("create-user");
  });
});
