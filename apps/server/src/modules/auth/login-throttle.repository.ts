import type { DbExecutor } from "../../db/executor.js";

/** One attempt taken on a counter: where its count now stands, and which window it belongs to. */
export interface ThrottleReservation {
  key: string;
  attempts: number;
  windowStartedAt: Date;
}

/**
 * Counts one more attempt on `key` in a single statement, starting a new window at `now` when
 * the current one began at or before `expiredBefore`. The upsert is the atomic step: parallel
 * callers, in one process or several, each see their own count.
 */
export async function reserveAttempt(db: DbExecutor, key: string, now: Date, expiredBefore: Date): Promise<ThrottleReservation> {
  const row = await db
    .insertInto("login_throttle")
    .values({ key, window_started_at: now, attempts: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        const expired = eb("login_throttle.window_started_at", "<=", expiredBefore);
        return {
          attempts: eb.case().when(expired).then(1).else(eb("login_throttle.attempts", "+", 1)).end(),
          window_started_at: eb.case().when(expired).then(now).else(eb.ref("login_throttle.window_started_at")).end(),
        };
      }),
    )
    .returning(["attempts", "window_started_at"])
    .executeTakeFirstOrThrow();
  return { key, attempts: row.attempts, windowStartedAt: new Date(row.window_started_at) };
}

/** Gives one attempt back, unless its window has since been replaced by a new one. */
export async function releaseAttempt(db: DbExecutor, reservation: ThrottleReservation): Promise<void> {
  await db
    .updateTable("login_throttle")
    .set((eb) => ({ attempts: eb("attempts", "-", 1) }))
    .where("key", "=", reservation.key)
    .where("window_started_at", "=", reservation.windowStartedAt)
    .where("attempts", ">", 0)
    .execute();
}

export async function clearAttempts(db: DbExecutor, key: string): Promise<void> {
  await db.deleteFrom("login_throttle").where("key", "=", key).execute();
}

/** Drops counters whose window is over; an attempt that races this simply starts afresh. */
export async function deleteExpiredAttempts(db: DbExecutor, expiredBefore: Date): Promise<void> {
  await db.deleteFrom("login_throttle").where("window_started_at", "<=", expiredBefore).execute();
}
