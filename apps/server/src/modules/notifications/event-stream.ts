import type { ServerResponse } from "node:http";
import { type Notification, STREAM_CLOSE_MESSAGES, type StreamCloseReason } from "@tally/contract";

/**
 * One open `text/event-stream` reply. Each notification goes out once, as
 * `id: <id>\ndata: <json>\n\n`, in id order: notifications that arrive while the stream is
 * still replaying what a reconnecting client missed wait, then duplicates are dropped by id.
 */
export class EventStream {
  private lastId = 0;
  private held: Notification[] | null = [];
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly onEnd: () => void,
  ) {
    res.on("close", () => this.finish());
    // Gone while its token was checked: that close was before anyone listened.
    if (res.closed) this.ended = true;
  }

  /**
   * Sends the headers: those the app's hooks set (security headers), then the stream's own.
   * Proxies are asked not to buffer or transform the stream.
   */
  open(appHeaders: Record<string, string | number | string[] | undefined> = {}): void {
    for (const [name, value] of Object.entries(appHeaders)) if (value !== undefined) this.res.setHeader(name, value);
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    // Some proxies hold back the headers until the first bytes of the body.
    this.res.write(": open\n\n");
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Sends at once (CONNECTED, ERROR), whatever is being replayed. */
  sendNow(notification: Notification): void {
    this.write(notification);
  }

  /** Sends a stored notification, or holds it while the replay is running. */
  deliver(notification: Notification): void {
    if (this.held) this.held.push(notification);
    else this.write(notification);
  }

  /** Ends the replay: the missed notifications, then those held meanwhile, each once. */
  release(replayed: Notification[]): void {
    const held = this.held ?? [];
    this.held = null;
    for (const n of [...replayed, ...held].sort((a, b) => a.id - b.id)) this.write(n);
  }

  heartbeat(): void {
    if (this.ended) return;
    // A connection closed unheard must not hold its place against the stream caps.
    if (this.res.destroyed) this.finish();
    else this.res.write(": heartbeat\n\n");
  }

  /**
   * Ends the stream on purpose, and tells the client why with a last STREAM_CLOSED: a client
   * that only saw the reply end would reconnect, which is the wrong answer to each reason.
   */
  close(reason: StreamCloseReason, at: Date): void {
    this.sendNow({ id: 0, type: "STREAM_CLOSED", reason, message: STREAM_CLOSE_MESSAGES[reason], createdAt: at.toISOString() });
    this.end();
  }

  /** Ends the reply (after FORCE_LOGOUT, at shutdown, or after an ERROR). */
  end(): void {
    if (this.ended) return;
    this.res.end();
    this.finish();
  }

  private write(n: Notification): void {
    if (this.ended) return;
    if (n.id !== 0 && n.id <= this.lastId) return;
    if (n.id !== 0) this.lastId = n.id;
    this.res.write(`id: ${n.id}\ndata: ${JSON.stringify(n)}\n\n`);
    // FORCE_LOGOUT ends every sign-in of the user: nothing further can concern this stream.
    if (n.type === "FORCE_LOGOUT") this.end();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
  }
}
