import type { FastifyBaseLogger } from "fastify";
import type { DbExecutor } from "../../db/executor.js";
import { type AccessEvent, insertAccessEvents } from "./access-log.repository.js";

/** How often the buffer is written: a crash (not a clean shutdown) loses at most this much. */
export const ACCESS_FLUSH_MS = 1_000;
/** A buffer this full is written at once, without waiting for the timer. */
export const ACCESS_FLUSH_EVENTS = 200;
/** When the database refuses writes for long, the oldest events beyond this are dropped (and logged), so memory stays bounded. */
const MAX_BUFFERED_EVENTS = 50_000;

/**
 * The record of access is written after the reply, in batches: a read costs a push onto an
 * array, never a round trip, so the dashboard and the student detail keep their speed.
 * A flush runs every ACCESS_FLUSH_MS, when ACCESS_FLUSH_EVENTS are waiting, before the record
 * is read (so a reader sees every access this instance has served), and on close (the app's
 * onClose: a clean shutdown loses nothing). A crash loses what is buffered: at most the last
 * second's reads and exports of this instance. A failed write keeps its events for the next try.
 */
export class AccessRecorder {
  private buffer: AccessEvent[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: DbExecutor,
    private readonly log?: FastifyBaseLogger,
    /** Runs after each written batch with its users (the bulk-export alarm); its failure is logged, never retried. */
    private readonly afterWrite?: (userIds: number[]) => Promise<void>,
  ) {
    this.timer = setInterval(() => void this.flush(), ACCESS_FLUSH_MS);
    this.timer.unref();
  }

  record(event: AccessEvent): void {
    if (event.student_ids.length === 0) return;
    this.buffer.push(event);
    if (this.buffer.length >= ACCESS_FLUSH_EVENTS) void this.flush();
  }

  /** Writes everything buffered so far; resolves once it is in the database (or logged as failed). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeBuffered());
    return this.writing;
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    try {
      await insertAccessEvents(this.db, batch);
    } catch (err) {
      this.buffer = [...batch, ...this.buffer];
      const dropped = this.buffer.length - MAX_BUFFERED_EVENTS;
      if (dropped > 0) this.buffer = this.buffer.slice(dropped);
      this.log?.error({ err, waiting: this.buffer.length, dropped: Math.max(0, dropped) }, "writing the record of access failed");
      if (this.closed) throw err;
      return;
    }
    try {
      await this.afterWrite?.(batch.map((e) => e.user_id));
    } catch (err) {
      this.log?.error({ err }, "checking the bulk-export alarm failed")
    }
  }

  /** Stops the timer and writes what is left (the app's onClose). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }
}
