import { type Kysely, sql } from "kysely";
import { expect } from "vitest";
import type { Database } from "../src/db/schema.js";

/** Every table's rows that hold `needle` anywhere (the whole row as text): {} once a student is gone. */
export async function rowsNaming(db: Kysely<Database>, needle: string): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const found: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)} x where x::text ilike ${`%${needle}%`}`.execute(db);
    if ((rows[0]?.n ?? 0) > 0) found[table_name] = rows[0]?.n ?? 0;
  }
  return found;
}

/** Rows of every table with a student_id column (the record of access aside: its id names no one) that hold the id. */
export async function rowsWithStudentId(db: Kysely<Database>, id: number): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'student_id'`.execute(db);
  expect(tables.rows.length).toBeGreaterThan(4);
  const found: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    if (table_name === "access_log") continue;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)} where student_id = ${id}`.execute(db);
    if ((rows[0]?.n ?? 0) > 0) found[table_name] = rows[0]?.n ?? 0;
  }
  return found;
}
