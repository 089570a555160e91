import { sql } from "kysely";
import type { DbExecutor } from "./executor.js";

/** One key for every import, undo and flag import: they take turns, so none plans on a state that moves. */
const IMPORT_LOCK_KEY = 7_311_011;

/** An import, its undo or a flag import, one at a time, until the transaction ends. */
export async function lockImports(db: DbExecutor): Promise<void> {
  await sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`.execute(db);
}

/**
 * A correction of imported data (a meeting's status): corrections run side by side, but never
 * while an import or an undo runs, so an undo sees every correction made before it and none
 * lands half-way through it.
 */
export async function shareImportsLock(db: DbExecutor): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${IMPORT_LOCK_KEY})`.execute(db);
}
