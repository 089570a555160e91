import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream-client.js";
import { buildUser } from "../../../test/factories.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { serverLoggerOptions } from "../../lib/request-log.js";

// The live connection takes the access token in the query string (EventSource sends no
// headers). Its requests run here through the server's own logger options at trace level, over
// a real socket for the stream, with errors on both routes; the token must appear nowhere.

let log = "";
const capture = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});
const t = useTestApp({ logger: serverLoggerOptions("trace", capture) });
let baseUrl = "";

beforeAll(async () => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

describe("the server log and the live connection", () => {
  it("holds no token from the stream's or the poll's query string, on success or error", async () => {
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    const token = session.token;
    const forged = `${token.slice(0, -6)}abcdef`;

    const s = await openStream(baseUrl, `/api/notifications?token=${token}`);
    await s.until((r) => r.events.length > 0);
    const poll = await t.app.inject({ method: "GET", url: `/api/notifications-poll?token=${token}` });
    expect(poll.statusCode).toBe(200);
    const refused = await openStream(baseUrl, `/api/notifications?token=${forged}`);
    await refused.ended;
    expect(refused.status).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `/api/notifications-poll?token=${forged}` })).statusCode).toBe(401);

    // A server-side failure on both routes (the table is away): logged with its error, still no token.
    await sql`alter table notifications rename to notifications_away`.execute(t.db);
    try {
      const failing = await openStream(baseUrl, `/api/notifications?token=${token}`, { "last-event-id": "1" });
      await failing.ended;
      expect(failing.events.map((e) => e.type)).toEqual(["CONNECTED", "ERROR"]);
      expect((await t.app.inject({ method: "GET", url: `/api/notifications-poll?token=${token}` })).statusCode).toBe(500);
    } finally {
      await sql`alter table notifications_away rename to notifications`.execute(t.db);
    }

    const ended = await t.app.inject({ method: "POST", url: `/api/users/${user.id}/deactivate`, headers: admin.headers });
    expect(ended.statusCode).toBe(200);
    await s.ended;
    // The stale token's poll, answered with the FORCE_LOGOUT.
    const after = await t.app.inject({ method: "GET", url: `/api/notifications-poll?token=${token}` });
    expect(after.json().data[0]?.type).toBe("FORCE_LOGOUT");

    // The requests were logged (so the check below looks at something), by path only.
    expect(log).toContain('"url":"/api/notifications"');
    expect(log).toContain('"url":"/api/notifications-poll"');
    expect(log).toContain("replaying missed notifications failed");
    for (const secret of [token, forged, token.split(".")[2] ?? token, forged.split(".")[2] ?? forged]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toContain("token=");
  });
});
