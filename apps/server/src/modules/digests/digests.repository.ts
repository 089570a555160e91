import type { Role } from "@tally/contract";
import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

// digest_deliveries is this module's table. It also reads the users it mails (users,
// user_schools) in the same statements, read-only; users.digest_enabled is written by the
// users module (accounts.service.ts).

export interface DigestRecipient {
  id: number;
  username: string;
  email: string;
  role: Role;
  school_id: number | null;
  digest_enabled: boolean;
  is_active: boolean;
  assigned_school_ids: number[];
}

const assignedSchools = sql<number[]>`array(select us.school_id from user_schools us where us.user_id = u.id order by us.school_id)`;

/**
 * The next page of active, opted-in users, by id after `afterId`, still owed the week's digest:
 * no delivery row yet, or one not sent with attempts left (a retry).
 */
export async function listOwedRecipients(
  db: DbExecutor,
  week: string,
  opts: { afterId: number; limit: number; maxAttempts: number; retryOnly: boolean; emptyOwed?: boolean },
): Promise<DigestRecipient[]> {
  const empty = opts.emptyOwed ? sql`or (d.sent_at is not null and d.alerts = 0)` : sql``;
  const owed = opts.retryOnly
    ? sql`d.user_id is not null and d.sent_at is null and d.attempts < ${opts.maxAttempts}`
    : sql`(d.user_id is null or (d.sent_at is null and d.attempts < ${opts.maxAttempts}) ${empty})`;
  const { rows } = await sql<DigestRecipient>`
    select u.id, u.username, u.email, u.role, u.school_id, u.digest_enabled, u.is_active, ${assignedSchools} as assigned_school_ids
      from users u
      left join digest_deliveries d on d.user_id = u.id and d.week_start = cast(${week} as date)
     where u.is_active and u.digest_enabled and u.id > ${opts.afterId} and ${owed}
     order by u.id
     limit ${opts.limit}`.execute(db);
  return rows;
}

export async function findRecipient(db: DbExecutor, userId: number): Promise<DigestRecipient | undefined> {
  const { rows } = await sql<DigestRecipient>`
    select u.id, u.username, u.email, u.role, u.school_id, u.digest_enabled, u.is_active, ${assignedSchools} as assigned_school_ids
      from users u where u.id = ${userId}`.execute(db);
  return rows[0];
}

/** Claims the user's digest of the week: true for exactly one caller, across instances. */
export async function claimDelivery(db: DbExecutor, userId: number, week: string, at: Date): Promise<boolean> {
  const { rows } = await sql<{ user_id: number }>`insert into digest_deliveries (user_id, week_start, claimed_at)
    values (${userId}, cast(${week} as date), ${at}) on conflict do nothing returning user_id`.execute(db);
  return rows.length > 0;
}

/**
 * Takes over a claimed but unsent delivery whose claim is older than `staleBefore` (its
 * instance failed or stopped): true for exactly one caller. A sent one is never taken.
 */
export async function reclaimDelivery(db: DbExecutor, userId: number, week: string, at: Date, staleBefore: Date, maxAttempts: number): Promise<boolean> {
  const { rows } = await sql<{ user_id: number }>`update digest_deliveries set claimed_at = ${at}
     where user_id = ${userId} and week_start = cast(${week} as date)
       and sent_at is null and attempts < ${maxAttempts} and claimed_at < ${staleBefore}
     returning user_id`.execute(db);
  return rows.length > 0;
}

/** A failed send: one attempt more, and why. */
export async function recordFailedAttempt(db: DbExecutor, userId: number, week: string, error: string): Promise<void> {
  await sql`update digest_deliveries set attempts = attempts + 1, last_error = ${error.slice(0, 500)}
     where user_id = ${userId} and week_start = cast(${week} as date) and sent_at is null`.execute(db);
}

/** The week's digest is done: sent (alerts > 0) or nothing to send (alerts = 0, no mail). */
export async function markDelivered(db: DbExecutor, userId: number, week: string, at: Date, alerts: number, attempted: boolean): Promise<void> {
  await sql`update digest_deliveries
       set sent_at = ${at}, alerts = ${alerts}, last_error = null, attempts = attempts + ${attempted ? 1 : 0}
     where user_id = ${userId} and week_start = cast(${week} as date) and sent_at is null`.execute(db);
}

/** Takes back a week that was done with nothing to send (an earlier run found nothing new): true for exactly one caller. */
export async function reclaimEmptyDelivery(db: DbExecutor, userId: number, week: string, at: Date): Promise<boolean> {
  const { rows } = await sql<{ user_id: number }>`update digest_deliveries set claimed_at = ${at}, sent_at = null
     where user_id = ${userId} and week_start = cast(${week} as date) and sent_at is not null and alerts = 0
     returning user_id`.execute(db);
  return rows.length > 0;
}

/** Gives up an unsent claim (nothing to send after an import): the week stays owed to the user. */
export async function releaseClaim(db: DbExecutor, userId: number, week: string): Promise<void> {
  await sql`delete from digest_deliveries
     where user_id = ${userId} and week_start = cast(${week} as date) and sent_at is null`.execute(db);
}

/** When the user's last digest before `week` was made (its claim), or undefined. */
export async function lastDigestAt(db: DbExecutor, userId: number, week: string): Promise<Date | undefined> {
  const { rows } = await sql<{ at: Date | string | null }>`select max(claimed_at) as at from digest_deliveries
     where user_id = ${userId} and week_start < cast(${week} as date) and sent_at is not null`.execute(db);
  const at = rows[0]?.at;
  return at ? new Date(at) : undefined;
}

export async function readDelivery(db: DbExecutor, userId: number, week: string) {
  return db
    .selectFrom("digest_deliveries")
    .selectAll()
    .where("user_id", "=", userId)
    .where("week_start", "=", week)
    .executeTakeFirst();
}
