import { describe, expect, it } from "vitest";
import type { EventStream } from "./event-stream.js";
import { type StreamHolder, StreamRegistry } from "./stream-registry.js";

// The registry only keeps streams as keys: plain objects stand in for them.
const stream = () => ({}) as EventStream;
const holder = (userId: number, address: string): StreamHolder => ({
  userId,
  sessionId: `s${userId}`,
  address,
  expiresAt: new Date("2030-01-01T00:00:00Z"),
  schools: "all",
});

describe("StreamRegistry", () => {
  it("displaces a user's oldest stream only once the user is at the cap", () => {
    const registry = new StreamRegistry({ perUser: 2, perAddress: 10, total: 10 });
    const [first, second] = [stream(), stream()];
    registry.add(holder(1, "a"), first);
    expect(registry.displaced(1)).toBeUndefined();
    registry.add(holder(1, "a"), second);
    expect(registry.displaced(1)).toBe(first);
    registry.remove(first);
    expect(registry.displaced(1)).toBeUndefined();
    expect(registry.ofUser(1).map(([s]) => s)).toEqual([second]);
  });

  it("lets a user at the cap replace their oldest stream from a full address or a full server, but no one else in", () => {
    const registry = new StreamRegistry({ perUser: 2, perAddress: 2, total: 3 });
    registry.add(holder(1, "a"), stream());
    registry.add(holder(1, "a"), stream());
    // Address a is full; user 1's new stream from a displaces one of its own there.
    expect(registry.refusal(holder(1, "a"))).toBeUndefined();
    expect(registry.refusal(holder(2, "a"))).toEqual({ cap: "address", limit: 2 });

    registry.add(holder(2, "b"), stream());
    // The server is full: only a displacement keeps the count.
    expect(registry.refusal(holder(3, "c"))).toEqual({ cap: "total", limit: 3 });
    expect(registry.refusal(holder(1, "c"))).toBeUndefined();
    expect(registry.size).toBe(3);
  });

  it("frees the address's and the server's places when a stream is removed", () => {
    const registry = new StreamRegistry({ perUser: 5, perAddress: 1, total: 1 });
    const only = stream();
    registry.add(holder(1, "a"), only);
    expect(registry.refusal(holder(2, "a"))?.cap).toBe("address");
    registry.remove(only);
    registry.remove(only);
    expect(registry.size).toBe(0);
    expect(registry.refusal(holder(2, "a"))).toBeUndefined();
    expect(registry.all()).toEqual([]);
  });
});
