import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

/**
 * Serialises one user's download counting until the transaction ends, so two downloads at once
 * cannot both read 29 and take the 31st; held in the database, so it works across instances.
 */
export async function lockUserDownloads(db: DbExecutor, userId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(7_014)}, ${sql.lit(Math.trunc(userId))})`.execute(db);
}

/** Drops the user's downloads at or before `before`: they no longer count. */
export async function deleteDownloadsUpTo(db: DbExecutor, userId: number, before: Date): Promise<void> {
  await db.deleteFrom("download_log").where("user_id", "=", userId).where("at", "<=", before).execute();
}

/** How many downloads the user took after `since`, and when the oldest of them was. */
export async function countDownloadsAfter(db: DbExecutor, userId: number, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("download_log")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("at").as("oldest")])
    .where("user_id", "=", userId)
    .where("at", ">", since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function insertDownload(db: DbExecutor, userId: number, at: Date): Promise<void> {
  await db.insertInto("download_log").values({ user_id: userId, at }).execute();
}
