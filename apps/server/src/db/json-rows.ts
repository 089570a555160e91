import { type Expression, type RawBuilder, sql } from "kysely";
import { inChunks } from "../lib/in-chunks.js";
import type { DbExecutor } from "./executor.js";

/**
 * Bulk writes send their rows as one JSON parameter read with json_to_recordset: the same SQL
 * on both engines, no 65,535-parameter limit, and a chunk small enough that building its JSON
 * never holds the event loop for long (10,000 weekly rows with their reflections took 15 ms to
 * stringify and as long again to hand to the embedded engine).
 */
export const ROWS_PER_STATEMENT = 2_500;

/** The rows as a json parameter. */
export const jsonRows = (rows: readonly unknown[]) => sql`${JSON.stringify(rows)}::json`;

/**
 * Runs `statement` once per chunk of `rows` (ROWS_PER_STATEMENT unless told), the chunk
 * handed to it as one json parameter; returns what the statements return, in order.
 */
export async function runChunked<R>(
  db: DbExecutor,
  rows: readonly unknown[],
  statement: (chunk: RawBuilder<unknown>) => RawBuilder<R>,
  size = ROWS_PER_STATEMENT,
): Promise<R[]> {
  const returned: R[] = [];
  for (const chunk of inChunks(rows, size)) {
    const result = await statement(jsonRows(chunk)).execute(db);
    for (const row of result.rows) returned.push(row);
  }
  return returned;
}

/** Reserves ids of a serial column, so rows that refer to new rows can be built before they exist. */
export async function reserveIds(db: DbExecutor, table: "students" | "teams", count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id
    from generate_series(1, ${count})`.execute(db);
  return rows.map((r) => r.id);
}

/** Deletes rows by id, a chunk per statement; returns how many went. */
export async function deleteRowsById(db: DbExecutor, table: "attendance_records" | "weekly_data", ids: readonly number[]): Promise<number> {
  const removed = await runChunked(
    db,
    ids,
    (chunk) => sql<{ id: number }>`delete from ${sql.table(table)} t
      using json_array_elements_text(${chunk}) x where t.id = x.value::int returning t.id`,
  );
  return removed.length;
}

/**
 * Ids as one int[] parameter (a PostgreSQL array literal: the embedded engine sends a JS array
 * as JSON). One parameter whatever the count, so the statement's text stays the same and is
 * prepared once.
 */
export const idArray = (ids: readonly number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(",")}}`}::int[]`;

/**
 * A page of rows with the count of all that match, as one JSON text: the embedded engine hands
 * one value across instead of decoding and copying every column of every row, and a page past
 * the end still carries the total. `total` is a parenthesised scalar subquery; `order` orders
 * the page's rows, named `r`. Dates come back as JSON text (ISO strings), not Date objects.
 */
export async function pageAsOneText<R>(db: DbExecutor, total: Expression<unknown>, rows: Expression<unknown>, order: RawBuilder<unknown>): Promise<{ rows: R[]; total: number }> {
  const { rows: found } = await sql<{ page: string }>`
    select json_build_object(
      'total', ${total},
      'rows', coalesce((select json_agg(r order by ${order}) from (${rows}) r), '[]'::json)
    )::text as page`.execute(db);
  const page = JSON.parse(found[0]?.page ?? "{}") as { total?: number | null; rows?: R[] };
  return { rows: page.rows ?? [], total: Number(page.total ?? 0) };
}
