import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

/**
 * Serialises one user's download counting until the transaction ends, so two downloads at once
 * cannot both read 29 and take the 31st; held in the database, so it works across instances.
 */
export async function lockUserDownloads(db: DbExecutor, userId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(7_014)}, ${sql.lit(Math.trunc(userId))})`.execute(db);
}

/**
 * Drops the user's rows that no longer count: downloads at or before `before`, except full
 * exports, which count until `fullBefore`.
 */
export async function deleteDownloadsUpTo(db: DbExecutor, userId: number, before: Date, fullBefore: Date): Promise<void> {
  await db
    .deleteFrom("download_log")
    .where("user_id", "=", userId)
    .where("at", "<=", before)
    .where((eb) => eb.or([eb("full_export", "=", false), eb("at", "<=", fullBefore)]))
    .execute();
}

/** How many downloads the user took after `since`, and when the oldest of them was. */
export async function countDownloadsAfter(db: DbExecutor, userId: number, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("download_log")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("at").as("oldest")])
    .where("user_id", "=", userId)
    .where("download", "=", true)
    .where("at", ">", since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** How many full exports the user claimed after `since`. */
export async function countFullExportsAfter(db: DbExecutor, userId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom("download_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("full_export", "=", true)
    .where("at", ">", since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertDownload(db: DbExecutor, userId: number, at: Date, kind: { download: boolean; fullExport: boolean } = { download: true, fullExport: false }): Promise<void> {
  await db.insertInto("download_log").values({ user_id: userId, at, download: kind.download, full_export: kind.fullExport }).execute();
}
