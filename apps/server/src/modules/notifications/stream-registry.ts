import type { EventStream } from "./event-stream.js";

/** How many streams one user, one client address and the whole process may hold. */
export interface StreamLimits {
  perUser: number;
  perAddress: number;
  total: number;
}

/** Who holds a stream: what the caps count, and what ends it besides the client. */
export interface StreamHolder {
  userId: number;
  /** The sign-in (refresh-token family) of the stream's token: signing out ends the stream. */
  sessionId: string;
  /** The client address as the per-address cap counts it (lib/client-address-key.ts). */
  address: string;
  /** The access token's expiry: the stream ends then. */
  expiresAt: Date;
  /** The schools whose students the user sees ('all' for admins): which ALERTS_CHANGED reach the stream. */
  schools: readonly number[] | "all";
}

/** The cap a new stream would break. */
export type StreamRefusal = { cap: "address" | "total"; limit: number };

/**
 * The open streams of this process, by user and by address. A user's streams are kept oldest
 * first, so the one a new stream past the per-user cap displaces is at hand.
 */
export class StreamRegistry {
  private readonly holders = new Map<EventStream, StreamHolder>();
  private readonly byUser = new Map<number, Set<EventStream>>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  get size(): number {
    return this.holders.size;
  }

  /** The user's oldest stream when the user is at the cap: a new one takes its place. */
  displaced(userId: number): EventStream | undefined {
    const set = this.byUser.get(userId);
    if (!set || set.size < this.limits.perUser) return undefined;
    return set.values().next().value;
  }

  /** The cap a new stream of `holder` would break, counting the stream it displaces as gone. */
  refusal(holder: StreamHolder): StreamRefusal | undefined {
    const displaced = this.displaced(holder.userId);
    const freed = displaced ? this.holders.get(displaced) : undefined;
    const sameAddress = freed?.address === holder.address ? 1 : 0;
    if ((this.byAddress.get(holder.address) ?? 0) - sameAddress >= this.limits.perAddress) {
      return { cap: "address", limit: this.limits.perAddress };
    }
    if (this.holders.size - (freed ? 1 : 0) >= this.limits.total) return { cap: "total", limit: this.limits.total };
    return undefined;
  }

  add(holder: StreamHolder, stream: EventStream): void {
    this.holders.set(stream, holder);
    const set = this.byUser.get(holder.userId) ?? new Set();
    set.add(stream);
    this.byUser.set(holder.userId, set);
    this.byAddress.set(holder.address, (this.byAddress.get(holder.address) ?? 0) + 1);
  }

  remove(stream: EventStream): void {
    const holder = this.holders.get(stream);
    if (!holder) return;
    this.holders.delete(stream);
    const set = this.byUser.get(holder.userId);
    set?.delete(stream);
    if (set?.size === 0) this.byUser.delete(holder.userId);
    const left = (this.byAddress.get(holder.address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(holder.address, left);
    else this.byAddress.delete(holder.address);
  }

  /** The user's streams, oldest first (a copy: ending one removes it). */
  ofUser(userId: number): Array<[EventStream, StreamHolder]> {
    return Array.from(this.byUser.get(userId) ?? [], (stream) => [stream, this.holders.get(stream) as StreamHolder]);
  }

  /** Every stream (a copy: ending one removes it). */
  all(): Array<[EventStream, StreamHolder]> {
    return Array.from(this.holders);
  }
}
