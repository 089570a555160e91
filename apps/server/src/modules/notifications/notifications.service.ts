import { type ForceLogoutReason, MESSAGES, NOTIFICATION_LIMITS, type Notification } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./notifications.repository.js";

// What other modules call to tell a user's open clients something, and what the stream and
// the poll read back. It depends on nothing outside this module, so the accounts and auth
// modules can call it without an import cycle.

/** What travels on the NOTIFY channel: the recipient and the notification as clients get it. */
export interface ChannelMessage {
  userId: number;
  notification: Notification;
}

/** Also on the channel, never stored: one sign-in of the user has ended; its streams end. */
export interface SignInEndedMessage {
  userId: number;
  signInEnded: string;
}

/**
 * Also on the channel, never stored: alerts were evaluated for these schools ('all': every
 * school, as after a rule change). Each instance passes it on as ALERTS_CHANGED to the streams
 * whose user sees one of them; the school ids never leave the server.
 */
export interface AlertsChangedMessage {
  alertsChanged: number[] | "all";
}

const FORCE_LOGOUT_MESSAGES: Record<ForceLogoutReason, string> = {
  ACCOUNT_DEACTIVATED: "Your account has been deactivated. Please contact an administrator.",
  ACCOUNT_CHANGED: MESSAGES.sessionVersionMismatch,
  PASSWORD_CHANGED: "Your password has been changed. Please log in again.",
  SESSIONS_REVOKED: MESSAGES.sessionExpired,
};

export function toNotification(row: repo.StoredNotification): Notification {
  return {
    id: Number(row.id),
    type: row.type,
    ...(row.reason ? { reason: row.reason as ForceLogoutReason } : {}),
    ...(row.message ? { message: row.message } : {}),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * Tells every open client of the user to sign out. The row and the NOTIFY are written with the
 * caller's transaction (or one of their own), so the event goes out only if the change that
 * ended the sessions commits; PostgreSQL delivers the NOTIFY to every instance at commit.
 */
export async function announceForceLogout(db: DbExecutor, userId: number, reason: ForceLogoutReason, at: Date): Promise<void> {
  const write = async (trx: DbExecutor) => {
    const row = await repo.insertNotification(trx, {
      userId,
      type: "FORCE_LOGOUT",
      reason,
      message: FORCE_LOGOUT_MESSAGES[reason],
      at,
    });
    const message: ChannelMessage = { userId, notification: toNotification(row) };
    await repo.notifyChannel(trx, JSON.stringify(message));
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

/**
 * Ends the open streams of one sign-in (a sign-out) on every instance. Only a NOTIFY, sent when
 * the caller's transaction commits: nothing is stored, as the user's other sign-ins go on and a
 * reconnect with the ended sign-in's token is refused anyway.
 */
export async function announceSignInEnded(db: DbExecutor, userId: number, sessionId: string): Promise<void> {
  const message: SignInEndedMessage = { userId, signInEnded: sessionId };
  await repo.notifyChannel(db, JSON.stringify(message));
}

/**
 * Tells the open clients of users who see any of `schools` to reread their alerts, on every
 * instance. Only a NOTIFY (after the evaluation has committed): a client that missed it sees
 * the change on its next read, so nothing is stored for replay.
 */
export async function announceAlertsChanged(db: DbExecutor, schools: readonly number[] | "all"): Promise<void> {
  if (schools !== "all" && schools.length === 0) return;
  const message: AlertsChangedMessage = { alertsChanged: schools === "all" ? "all" : [...new Set(schools)] };
  await repo.notifyChannel(db, JSON.stringify(message));
}

const keptSince = (now: Date) => new Date(now.getTime() - NOTIFICATION_LIMITS.keepMs);

/**
 * The user's stored notifications after `afterId` that concern a sign-in made at `sessionStart`
 * (older ones ended an earlier sign-in and would sign this one out for nothing).
 */
export async function notificationsAfter(
  db: DbExecutor,
  userId: number,
  afterId: number,
  sessionStart: Date,
  now: Date,
  onlyForceLogout = false,
): Promise<Notification[]> {
  const since = new Date(Math.max(keptSince(now).getTime(), sessionStart.getTime()));
  const rows = await repo.findNotificationsAfter(db, userId, afterId, since, onlyForceLogout ? "FORCE_LOGOUT" : undefined);
  return rows.map(toNotification);
}

/**
 * GET /notifications-poll: what the user's polls have not returned yet, then the cursor moves
 * past it. Day-old rows are deleted on the way (a poll is frequent enough to keep the table small).
 */
export async function pollNotifications(
  db: DbExecutor,
  userId: number,
  sessionStart: Date,
  now: Date,
  options: { ignoreCursor?: boolean; onlyForceLogout?: boolean } = {},
): Promise<Notification[]> {
  await repo.deleteNotificationsBefore(db, keptSince(now));
  const cursor = options.ignoreCursor ? 0 : ((await repo.findPollCursor(db, userId)) ?? 0);
  const found = await notificationsAfter(db, userId, cursor, sessionStart, now, options.onlyForceLogout);
  const last = found.at(-1);
  if (last) await repo.savePollCursor(db, userId, last.id, now);
  return found;
}

/** The schema's NOTIFY channel. */
export function notificationChannel(db: DbExecutor): Promise<string> {
  return repo.channelName(db);
}

/** The highest stored id: where a listener that may lose messages starts counting. */
export function lastNotificationId(db: DbExecutor): Promise<number> {
  return repo.lastNotificationId(db);
}

/** Stored notifications after `afterId` for anyone: what a reconnected listener may have missed. */
export async function notificationsSince(db: DbExecutor, afterId: number, now: Date): Promise<ChannelMessage[]> {
  const rows = await repo.findAllNotificationsAfter(db, afterId, keptSince(now));
  return rows.map((row) => ({ userId: row.user_id, notification: toNotification(row) }));
}
