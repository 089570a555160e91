import { z } from "zod";

/**
 * Spec §4 and §7: what the server pushes to a signed-in client. STREAM_CLOSED (not in the spec)
 * comes last on a stream the server ends on purpose; its reason tells the client what to do.
 * ALERTS_CHANGED (issue 30): an evaluation ran for schools the stream's user sees (an import,
 * an undo, a flag import, a rule change), so the client rereads its alerts. It carries nothing
 * else, not even the school: what changed is read through the scoped API.
 */
export const NOTIFICATION_TYPES = ["CONNECTED", "FORCE_LOGOUT", "ERROR", "STREAM_CLOSED", "ALERTS_CHANGED"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Why a session was ended; the client shows the expired notice for each. */
export const FORCE_LOGOUT_REASONS = [
  "ACCOUNT_DEACTIVATED",
  "ACCOUNT_CHANGED",
  "PASSWORD_CHANGED",
  "SESSIONS_REVOKED",
] as const;
export type ForceLogoutReason = (typeof FORCE_LOGOUT_REASONS)[number];

/**
 * Why one stream was ended, the user's sessions aside. SUPERSEDED: the user opened more streams
 * than the server keeps for one user, and this was the oldest (do not reconnect: poll). SIGNED_OUT:
 * its sign-in was ended (sign out). TOKEN_EXPIRED: the access token it was opened with expired
 * (reconnect with a fresh one).
 */
export const STREAM_CLOSE_REASONS = ["SUPERSEDED", "SIGNED_OUT", "TOKEN_EXPIRED"] as const;
export type StreamCloseReason = (typeof STREAM_CLOSE_REASONS)[number];

/** The `message` of each STREAM_CLOSED, for API clients and logs. */
export const STREAM_CLOSE_MESSAGES: Record<StreamCloseReason, string> = {
  SUPERSEDED: "Live updates moved to a newer tab or window; this one checks for updates every 30 seconds instead.",
  SIGNED_OUT: "This sign-in has ended. Please log in again.",
  TOKEN_EXPIRED: "The access token of this stream has expired; reconnect with a fresh one.",
};

/**
 * One notification. On the event stream each is sent as `id: <id>\ndata: <json>\n\n` (the
 * default `message` event); CONNECTED, STREAM_CLOSED and ALERTS_CHANGED are not stored and have id 0.
 * Heartbeats are comment lines (`: heartbeat`).
 */
export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  /** FORCE_LOGOUT: a ForceLogoutReason; STREAM_CLOSED: a StreamCloseReason. */
  reason: z.enum([...FORCE_LOGOUT_REASONS, ...STREAM_CLOSE_REASONS]).optional(),
  message: z.string().optional(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Optional in the schema so that a missing token is the 401 of every route without credentials, not a 400. */
export const notificationTokenQuerySchema = z.object({ token: z.string().max(4096).optional() });

/** GET /api/notifications-poll: the caller's notifications since its last poll (kept a day). */
export const notificationsPollSchema = z.object({ data: z.array(notificationSchema) });
export type NotificationsPoll = z.infer<typeof notificationsPollSchema>;

export const NOTIFICATION_LIMITS = {
  /** The stream sends a comment at least this often so proxies keep it open. */
  heartbeatMs: 25_000,
  reconnectAttempts: 5,
  reconnectDelayMs: 5_000,
  pollIntervalMs: 30_000,
  /** Stored notifications older than this are not returned and are deleted. */
  keepMs: 24 * 60 * 60_000,
} as const;

/** GET /api/debug/cors: the request's origin and whether CORS would allow it; nothing secret. */
export const debugCorsSchema = z.object({
  origin: z.string().nullable(),
  allowed: z.boolean(),
  method: z.string(),
  time: z.string(),
});
export type DebugCors = z.infer<typeof debugCorsSchema>;

/** GET /api/public-config: what the app may show before sign-in. */
export const publicConfigSchema = z.object({ supportEmail: z.string() });
export type PublicConfig = z.infer<typeof publicConfigSchema>;
