import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { NotificationsTable } from "../../db/schema.js";

export interface StoredNotification {
  id: number;
  user_id: number;
  type: NotificationsTable["type"];
  reason: string | null;
  message: string | null;
  created_at: Date;
}

// NOTIFY channels belong to the whole database, not to a schema: instances (and parallel test
// suites) working in different schemas of one PostgreSQL must not hear each other, so the
// channel is named after the schema. Writers and listeners compute it with the same SQL.
const CHANNEL = sql<string>`'tally_notifications_' || current_schema()`;

/** The NOTIFY channel of this database schema. */
export async function channelName(db: DbExecutor): Promise<string> {
  const row = await db.selectNoFrom(CHANNEL.as("channel")).executeTakeFirstOrThrow();
  return row.channel;
}

export function insertNotification(
  db: DbExecutor,
  values: { userId: number; type: NotificationsTable["type"]; reason: string | null; message: string | null; at: Date },
): Promise<StoredNotification> {
  return db
    .insertInto("notifications")
    .values({ user_id: values.userId, type: values.type, reason: values.reason, message: values.message, created_at: values.at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * pg_notify on the schema's channel. Inside a transaction PostgreSQL (and PGlite) deliver it at
 * commit and drop it on rollback, so listeners never hear of a change that did not happen.
 */
export async function notifyChannel(db: DbExecutor, payload: string): Promise<void> {
  await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
}

/** The user's notifications with an id above `afterId` created at or after `since`, oldest first. */
export function findNotificationsAfter(
  db: DbExecutor,
  userId: number,
  afterId: number,
  since: Date,
  type?: NotificationsTable["type"],
): Promise<StoredNotification[]> {
  let query = db
    .selectFrom("notifications")
    .selectAll()
    .where("user_id", "=", userId)
    .where("id", ">", afterId)
    .where("created_at", ">=", since);
  if (type) query = query.where("type", "=", type);
  return query.orderBy("id").limit(100).execute();
}

/** Every notification with an id above `afterId` (any user), for a listener that reconnected. */
export function findAllNotificationsAfter(db: DbExecutor, afterId: number, since: Date): Promise<StoredNotification[]> {
  return db
    .selectFrom("notifications")
    .selectAll()
    .where("id", ">", afterId)
    .where("created_at", ">=", since)
    .orderBy("id")
    .limit(10_000)
    .execute();
}

export async function lastNotificationId(db: DbExecutor): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function findPollCursor(db: DbExecutor, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom("notification_poll_cursors").select("last_id").where("user_id", "=", userId).executeTakeFirst();
  return row ? Number(row.last_id) : undefined;
}

/** Moves the user's poll cursor forward (never back: two polls may cross). */
export async function savePollCursor(db: DbExecutor, userId: number, lastId: number, at: Date): Promise<void> {
  await db
    .insertInto("notification_poll_cursors")
    .values({ user_id: userId, last_id: lastId, polled_at: at })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet((eb) => ({
        last_id: sql<number>`greatest(${eb.ref("notification_poll_cursors.last_id")}, ${eb.ref("excluded.last_id")})`,
        polled_at: eb.ref("excluded.polled_at"),
      })),
    )
    .execute();
}

export async function deleteNotificationsBefore(db: DbExecutor, cutoff: Date): Promise<void> {
  await db.deleteFrom("notifications").where("created_at", "<", cutoff).execute();
}
