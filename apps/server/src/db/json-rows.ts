import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.js";

/**
 * Bulk writes send their rows as one JSON parameter read with json_to_recordset: the same SQL
 * on both engines, no 65,535-parameter limit, and a chunk small enough that building its JSON
 * never holds the event loop for long (10,000 weekly rows with their reflections took 15 ms to
 * stringify and as long again to hand to the embedded engine).
 */
export const ROWS_PER_STATEMENT = 2_500;

export function inChunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** The rows as a json parameter. */
export const jsonRows = (rows: readonly unknown[]) => sql`${JSON.stringify(rows)}::json`;

/** Reserves ids of a serial column, so rows that refer to new rows can be built before they exist. */
export async function reserveIds(db: Kysely<Database>, table: "students" | "teams", count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id
    from generate_series(1, ${count})`.execute(db);
  return rows.map((r) => r.id);
}

/** Deletes rows by id, a chunk per statement; returns how many went. */
export async function deleteRowsById(db: Kysely<Database>, table: "attendance_records" | "weekly_data", ids: readonly number[]): Promise<number> {
  let removed = 0;
  for (const chunk of inChunks(ids)) {
    const { rows } = await sql<{ id: number }>`delete from ${sql.table(table)} t
      using json_array_elements_text(${jsonRows(chunk)}) x where t.id = x.value::int returning t.id`.execute(db);
    removed += rows.length;
  }
  return removed;
}
