import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/test-app.js";

// A preview's plan is written by its commit only while the data version (part of the imports'
// fingerprint) stays the same: any statement writing a table the plan was made from must move
// it, a read must not.

const t = useTestApp();
const readVersion = async () =>
  (await sql<{ version: string }>`select last_value || ':' || is_called as version from data_version`.execute(t.db)).rows[0]?.version;
const TABLES = ["schools", "cohorts", "teams", "students", "student_cohorts", "student_teams", "attendance_records", "weekly_data"];

describe("the data version", () => {
  it("changes with every statement that writes a table a plan is made from, even one that changes no row", async () => {
    for (const table of TABLES) {
      const before = await readVersion();
      await sql`update ${sql.table(table)} set ${sql.ref(table === "student_cohorts" || table === "student_teams" ? "student_id" : "id")} = 0 where false`.execute(t.db);
      expect(await readVersion(), table).not.toBe(before);
    }
  });

  it("stays the same over reads and writes elsewhere", async () => {
    const before = await readVersion();
    for (const table of TABLES) await sql`select count(*) from ${sql.table(table)}`.execute(t.db);
    await sql`update users set id = 0 where false`.execute(t.db);
    expect(await readVersion()).toBe(before);
  });
});
