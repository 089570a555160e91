import { type Notification, notificationSchema } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import type { EventStream } from "./event-stream.js";
import { lastNotificationId, notificationChannel, notificationsSince } from "./notifications.service.js";

const channelMessageSchema = z.object({ userId: z.number().int(), notification: notificationSchema });

/**
 * The open event streams of this instance, by user. It LISTENs on the schema's channel, so a
 * notification committed by any instance sharing the database reaches the streams held here;
 * one timer sends every stream its heartbeat.
 */
export class NotificationHub {
  private readonly streams = new Map<number, Set<EventStream>>();
  private stopListening: (() => Promise<void>) | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private lastSeenId = 0;
  private closing = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly heartbeatMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const db = this.ctx.database.db;
    this.lastSeenId = await lastNotificationId(db);
    const channel = await notificationChannel(db);
    this.stopListening = await this.ctx.database.listen(
      channel,
      (payload) => this.receive(payload),
      () => void this.catchUp(),
    );
    this.heartbeatTimer = setInterval(() => {
      for (const set of this.streams.values()) for (const stream of set) stream.heartbeat();
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  /** False once shutdown began: new streams are refused so clients go to another instance. */
  get accepting(): boolean {
    return !this.closing;
  }

  /** How many streams are open (the bench and the tests read it). */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  add(userId: number, stream: EventStream): () => void {
    const set = this.streams.get(userId) ?? new Set();
    set.add(stream);
    this.streams.set(userId, set);
    return () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(userId) === set) this.streams.delete(userId);
    };
  }

  /** Shutdown, first step: ends every stream so its client reconnects (to another instance). */
  endAll(): void {
    this.closing = true;
    // Snapshots: ending a stream removes it from these collections.
    for (const set of Array.from(this.streams.values())) for (const stream of Array.from(set)) stream.end();
  }

  /** Shutdown, last step: stops listening (before the database closes). */
  async stop(): Promise<void> {
    this.closing = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private receive(payload: string): void {
    let parsed: z.infer<typeof channelMessageSchema>;
    try {
      parsed = channelMessageSchema.parse(JSON.parse(payload));
    } catch {
      this.log.warn("ignored a malformed notification on the channel");
      return;
    }
    this.dispatch(parsed.userId, parsed.notification);
  }

  private dispatch(userId: number, notification: Notification): void {
    this.lastSeenId = Math.max(this.lastSeenId, notification.id);
    const set = this.streams.get(userId);
    if (!set) return;
    // A snapshot: a FORCE_LOGOUT ends the stream, which removes it from the set.
    for (const stream of Array.from(set)) stream.deliver(notification);
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
