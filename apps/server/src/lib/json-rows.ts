import { sql } from "kysely";

/**
 * Bulk writes send their rows as one JSON parameter read with json_to_recordset: the same SQL
 * on both engines, no 65,535-parameter limit, and a chunk small enough that building its JSON
 * never holds the event loop for long.
 */
export const ROWS_PER_STATEMENT = 5000;

export function inChunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** The rows as a json parameter. */
export const jsonRows = (rows: readonly unknown[]) => sql`${JSON.stringify(rows)}::json`;
