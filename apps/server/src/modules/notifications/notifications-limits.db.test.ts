import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStream, type StreamReply } from "../../../test/event-stream-client.js";
import { buildUser } from "../../../test/factories.js";
import { listening, loginAs, type TestApp, useTestApp } from "../../../test/test-app.js";
import { serverLoggerOptions } from "../../lib/request-log.js";

// How many event streams one user, one network address and the whole server may hold. The
// addresses come from X-Forwarded-For, which the app believes from 127.0.0.1 (TRUST_PROXY).
// The server-wide cap counts every stream, so it gets an app of its own.

const t = useTestApp({ heartbeatMs: 40, config: { trustProxy: ["127.0.0.1"], streamsPerAddress: 3 } });
let log = "";
const capture = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});
const full = useTestApp({ heartbeatMs: 40, logger: serverLoggerOptions("info", capture), config: { streamsMaxTotal: 3 } });
let baseUrl = "";
let fullUrl = "";

beforeAll(async () => {
  baseUrl = await listening(t.app);
  fullUrl = await listening(full.app);
});

let addresses = 0;
/** A network address no other stream of this file came from. */
const freshAddress = () => {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};
const from = (address: string) => ({ "x-forwarded-for": address });
const signedIn = async (app: TestApp) => loginAs(app.app, await buildUser(app.db, { role: "admin" }));
const heartbeats = (s: StreamReply) => s.comments.filter((c) => c === "heartbeat").length;
/** Two heartbeats more on `s`: long enough for anything the server was about to do to the others. */
const twoBeatsLater = async (s: StreamReply) => {
  const beats = heartbeats(s);
  await s.until((r) => heartbeats(r) >= beats + 2);
};

describe("streams per user (10)", () => {
  it("an eleventh stream supersedes the user's oldest: it is told STREAM_CLOSED SUPERSEDED and ends; the ten newest stay open", async () => {
    const session = await signedIn(t);
    const streams: StreamReply[] = [];
    for (let i = 0; i < 11; i++) streams.push(await connectStream(baseUrl, session.token, from(freshAddress())));
    const [oldest, ...rest] = streams as [StreamReply, ...StreamReply[]];

    await oldest.ended;
    expect(oldest.events.map((e) => e.type)).toEqual(["CONNECTED", "STREAM_CLOSED"]);
    expect(oldest.events[1]).toMatchObject({ id: 0, type: "STREAM_CLOSED", reason: "SUPERSEDED" });
    expect(oldest.events[1]?.message).toBeTruthy();
    await twoBeatsLater(rest.at(-1) as StreamReply);
    for (const s of rest) {
      expect(s.done).toBe(false);
      expect(s.events.map((e) => e.type)).toEqual(["CONNECTED"]);
    }
    for (const s of rest) s.close();
  });

  it("the health check answers while a user holds their maximum, and their further streams do not add up", async () => {
    const session = await signedIn(t);
    const streams: StreamReply[] = [];
    for (let i = 0; i < 15; i++) streams.push(await connectStream(baseUrl, session.token, from(freshAddress())));
    // Each new stream past the tenth ended the oldest one still open.
    await Promise.all(streams.slice(0, 5).map((s) => s.ended));
    expect(streams.filter((s) => !s.done)).toHaveLength(10);

    const health = await fetch(`${baseUrl}/api/health-check`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    for (const s of streams) s.close();
  });
});

describe("streams per network address", () => {
  it("refuses the stream beyond the address's cap with 429, a message saying so and Retry-After; other addresses go on", async () => {
    const address = freshAddress();
    const held: StreamReply[] = [];
    for (let i = 0; i < 3; i++) held.push(await connectStream(baseUrl, (await signedIn(t)).token, from(address)));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);

    const refused = await connectStream(baseUrl, (await signedIn(t)).token, from(address));
    await refused.ended;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const body = JSON.parse(refused.body);
    expect(body.code).toBe("RATE_LIMITED");
    expect(body.error).toMatch(/network address/);
    expect(body.error).toContain("3");

    const elsewhere = await connectStream(baseUrl, (await signedIn(t)).token, from(freshAddress()));
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.events[0]?.type).toBe("CONNECTED");
    for (const s of [...held, elsewhere]) s.close();
  });
});

describe("streams on the whole server", () => {
  it("refuses the stream beyond the server's cap with 429 and Retry-After, logs it, and lets the next one in once a stream ends", async () => {
    const sessions = [await signedIn(full), await signedIn(full), await signedIn(full)];
    const held: StreamReply[] = [];
    for (const session of sessions) held.push(await connectStream(fullUrl, session.token));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);

    const late = await signedIn(full);
    const refused = await connectStream(fullUrl, late.token);
    await refused.ended;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "RATE_LIMITED", error: expect.stringMatching(/server/) });
    expect(log).toContain("notification stream refused");

    // A sign-out ends its stream, which frees the place.
    const out = await full.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: sessions[0]?.refreshToken } });
    expect(out.statusCode).toBe(200);
    await held[0]?.ended;
    const admitted = await connectStream(fullUrl, late.token);
    expect(admitted.status).toBe(200);
    for (const s of [...held, admitted]) s.close();
  });
});
