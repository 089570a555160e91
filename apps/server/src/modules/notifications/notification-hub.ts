import { NOTIFICATION_LIMITS, type Notification, notificationSchema } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { tooManyRequests } from "../../lib/errors.js";
import { throttledWarning } from "../../lib/throttled-warning.js";
import type { EventStream } from "./event-stream.js";
import { lastNotificationId, notificationChannel, notificationsSince } from "./notifications.service.js";
import { type StreamHolder, type StreamRefusal, StreamRegistry } from "./stream-registry.js";

const channelMessageSchema = z.union([
  z.object({ userId: z.number().int(), notification: notificationSchema }),
  z.object({ userId: z.number().int(), signInEnded: z.string().min(1) }),
  z.object({ alertsChanged: z.union([z.literal("all"), z.array(z.number().int())]) }),
]);

/** A refused stream may poll meanwhile: it is told to try again after one poll interval. */
const RETRY_STREAM_SECONDS = NOTIFICATION_LIMITS.pollIntervalMs / 1000;

/**
 * The open event streams of this instance, within the caps of the config (per user, per
 * address, in all). It LISTENs on the schema's channel, so a notification or a sign-out
 * committed by any instance sharing the database reaches the streams held here; one timer
 * sends every stream its heartbeat and ends those whose access token has expired.
 */
export class NotificationHub {
  private readonly streams: StreamRegistry;
  private readonly warnRefused: (fields?: object) => void;
  private stopListening: (() => Promise<void>) | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private lastSeenId = 0;
  private closing = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly heartbeatMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    const { streamsPerUser, streamsPerAddress, streamsMaxTotal } = ctx.config;
    this.streams = new StreamRegistry({ perUser: streamsPerUser, perAddress: streamsPerAddress, total: streamsMaxTotal });
    this.warnRefused = throttledWarning(log, "notification stream refused: a stream cap is reached (STREAMS_PER_ADDRESS, STREAMS_MAX_TOTAL)");
  }

  async start(): Promise<void> {
    const db = this.ctx.database.db;
    this.lastSeenId = await lastNotificationId(db);
    const channel = await notificationChannel(db);
    this.stopListening = await this.ctx.database.listen(
      channel,
      (payload) => this.receive(payload),
      () => void this.catchUp(),
    );
    this.heartbeatTimer = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  /** False once shutdown began: new streams are refused so clients go to another instance. */
  get accepting(): boolean {
    return !this.closing;
  }

  /** How many streams are open. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Holds `stream` until the returned function is called (when it ends). Past a cap it throws
   * the 429, before anything of the stream is written; past the user's own cap the user's oldest
   * stream gives way instead (STREAM_CLOSED SUPERSEDED): the newest tab is the one in use, and
   * an old one may be a connection whose client vanished without closing it.
   */
  add(holder: StreamHolder, stream: EventStream): () => void {
    const refusal = this.streams.refusal(holder);
    if (refusal) {
      this.warnRefused({ cap: refusal.cap, limit: refusal.limit, address: holder.address });
      throw tooManyRequests(refusalMessage(refusal), RETRY_STREAM_SECONDS);
    }
    this.streams.displaced(holder.userId)?.close("SUPERSEDED", this.ctx.clock.now());
    this.streams.add(holder, stream);
    // The heartbeat also ends expired streams; this ends them on time.
    const expiry = setTimeout(
      () => stream.close("TOKEN_EXPIRED", this.ctx.clock.now()),
      Math.max(0, holder.expiresAt.getTime() - this.ctx.clock.now().getTime()),
    );
    expiry.unref();
    return () => {
      clearTimeout(expiry);
      this.streams.remove(stream);
    };
  }

  /** Shutdown, first step: ends every stream so its client reconnects (to another instance). */
  endAll(): void {
    this.closing = true;
    for (const [stream] of this.streams.all()) stream.end();
  }

  /** Shutdown, last step: stops listening (before the database closes). */
  async stop(): Promise<void> {
    this.closing = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private beat(): void {
    const now = this.ctx.clock.now();
    for (const [stream, holder] of this.streams.all()) {
      if (holder.expiresAt <= now) stream.close("TOKEN_EXPIRED", now);
      else stream.heartbeat();
    }
  }

  private receive(payload: string): void {
    let parsed: z.infer<typeof channelMessageSchema>;
    try {
      parsed = channelMessageSchema.parse(JSON.parse(payload));
    } catch {
      this.log.warn("ignored a malformed notification on the channel");
      return;
    }
    if ("alertsChanged" in parsed) this.alertsChanged(parsed.alertsChanged);
    else if ("notification" in parsed) this.dispatch(parsed.userId, parsed.notification);
    else this.endSignIn(parsed.userId, parsed.signInEnded);
  }

  private dispatch(userId: number, notification: Notification): void {
    this.lastSeenId = Math.max(this.lastSeenId, notification.id);
    // A FORCE_LOGOUT ends the stream, which removes it (ofUser is a copy).
    for (const [stream] of this.streams.ofUser(userId)) stream.deliver(notification);
  }

  /**
   * ALERTS_CHANGED to every stream whose user sees one of the schools (an admin sees them all,
   * students without a school included). The event names no school: a user hears only that
   * something they may see changed.
   */
  private alertsChanged(schools: number[] | "all"): void {
    const event: Notification = { id: 0, type: "ALERTS_CHANGED", createdAt: this.ctx.clock.now().toISOString() };
    for (const [stream, holder] of this.streams.all()) {
      const seen = holder.schools;
      const sees = seen === "all" || schools === "all" || schools.some((id) => seen.includes(id));
      if (sees) stream.deliver(event);
    }
  }

  private endSignIn(userId: number, sessionId: string): void {
    const now = this.ctx.clock.now();
    for (const [stream, holder] of this.streams.ofUser(userId)) {
      if (holder.sessionId === sessionId) stream.close("SIGNED_OUT", now);
    }
  }

  /**
   * The PostgreSQL listener reconnected: what was committed while it was down was never heard,
   * so it is read back from the table (streams drop what they already sent, by id).
   */
  private async catchUp(): Promise<void> {
    try {
      const missed = await notificationsSince(this.ctx.database.db, this.lastSeenId, this.ctx.clock.now());
      for (const m of missed) this.dispatch(m.userId, m.notification);
    } catch (err) {
      this.log.error({ err }, "reading the notifications missed while the listener was down failed");
    }
  }
}

function refusalMessage({ cap, limit }: StreamRefusal): string {
  return cap === "address"
    ? `Too many notification streams are open from your network address (at most ${limit}). Close some tabs, or poll GET /api/notifications-poll meanwhile.`
    : `The server holds as many notification streams as it can (${limit}). Poll GET /api/notifications-poll meanwhile, or try again later.`;
}
