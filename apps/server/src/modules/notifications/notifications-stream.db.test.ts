import type { AddressInfo } from "node:net";
import { type ForceLogoutReason, LIMITS, MESSAGES, type Notification } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStream, openStream, type StreamReply } from "../../../test/event-stream-client.js";
import { buildSchool, buildUser, type BuiltUser } from "../../../test/factories.js";
import { caller, type LoggedIn, loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { createOneTimeToken } from "../sessions/sessions.service.js";
import { signOutEverywhere } from "../users/accounts.service.js";
import { announceForceLogout } from "./notifications.service.js";

const clock = manualClock(new Date());
const t = useTestApp({ clock, heartbeatMs: 40 });
const call = caller(t);
let adminUser: BuiltUser;
let baseUrl = "";
/** A fresh admin sign-in: the tests move the clock past token expiry. */
const admin = { headers: async () => (await loginAs(t.app, adminUser)).headers };

beforeAll(async () => {
  adminUser = await buildUser(t.db, { role: "super_admin" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const stream = (token: string, headers: Record<string, string> = {}) =>
  openStream(baseUrl, `/api/notifications?token=${encodeURIComponent(token)}`, headers);
const connected = (token: string, headers: Record<string, string> = {}) => connectStream(baseUrl, token, headers);
const forceLogouts = (s: StreamReply) => s.events.filter((e) => e.type === "FORCE_LOGOUT");

async function signedInUser(role: "school_user" | "district_user" | "admin" = "district_user") {
  const schools = role === "district_user" ? [(await buildSchool(t.db)).id] : undefined;
  const user = await buildUser(t.db, { role, schoolIds: schools });
  return { user, session: await loginAs(t.app, user) };
}

describe("GET /api/notifications (event stream)", () => {
  it("opens with CONNECTED (id 0) as text/event-stream and sends heartbeat comments", async () => {
    const { session } = await signedInUser();
    const s = await connected(session.token);
    expect(s.status).toBe(200);
    expect(s.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(s.headers["cache-control"]).toContain("no-cache");
    // The app's security headers are kept on the hand-written reply.
    expect(s.headers["x-content-type-options"]).toBe("nosniff");
    expect(s.ids[0]).toBe("0");
    expect(s.events[0]).toMatchObject({ id: 0, type: "CONNECTED" });
    expect(Number.isNaN(Date.parse(s.events[0]?.createdAt ?? ""))).toBe(false);
    await s.until((r) => r.comments.includes("heartbeat"));
    expect(s.comments).toContain("heartbeat");
    s.close();
  });

  it("refuses a forged, an expired or a missing token with a JSON error and no stream", async () => {
    const { session } = await signedInUser();
    const forged = `${session.token.slice(0, -4)}AAAA`;
    for (const token of [forged, "not-a-token"]) {
      const s = await stream(token);
      await s.ended;
      expect(s.status).toBe(401);
      expect(s.headers["content-type"]).toMatch(/application\/json/);
      expect(JSON.parse(s.body)).toEqual({ error: MESSAGES.unauthenticated, code: "UNAUTHENTICATED" });
    }
    const expiring = await signedInUser();
    clock.advance((LIMITS.accessTokenTtlSeconds + 1) * 1000);
    const expired = await stream(expiring.session.token);
    await expired.ended;
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body).code).toBe("TOKEN_EXPIRED");
    // No token at all, or an empty one: the 401 of every route without credentials.
    for (const path of ["/api/notifications", "/api/notifications?token="]) {
      const missing = await openStream(baseUrl, path);
      await missing.ended;
      expect(missing.status, path).toBe(401);
      expect(JSON.parse(missing.body).code, path).toBe("UNAUTHENTICATED");
    }
  });

  it("refuses a token whose session version is stale with the guard's 401", async () => {
    const { user, session } = await signedInUser();
    await signOutEverywhere(t.db, user.id, "ACCOUNT_CHANGED");
    const s = await stream(session.token);
    await s.ended;
    expect(s.status).toBe(401);
    expect(JSON.parse(s.body)).toEqual({ error: MESSAGES.sessionVersionMismatch, code: "SESSION_VERSION_MISMATCH" });
    // (A client that reconnects with Last-Event-ID, or polls, is given the FORCE_LOGOUT instead: below.)
  });

  it("gives a deactivated account 401 ACCOUNT_INACTIVE (the guard's answer; never 403)", async () => {
    const { user, session } = await signedInUser();
    await t.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id).execute();
    const s = await stream(session.token);
    await s.ended;
    expect(s.status).toBe(401);
    expect(JSON.parse(s.body).code).toBe("ACCOUNT_INACTIVE");
    const poll = await call("GET", `/api/notifications-poll?token=${session.token}`);
    expect(poll.statusCode).toBe(401);
    expect(poll.json().code).toBe("ACCOUNT_INACTIVE");
  });
});

/** Each admin action that ends a user's sessions, and the reason its FORCE_LOGOUT carries. */
const paths: Array<{
  name: string;
  reason: ForceLogoutReason;
  role?: "school_user" | "district_user";
  act: (target: BuiltUser, target2: LoggedIn) => Promise<void>;
}> = [
  {
    name: "DELETE /api/users/:id (deactivate)",
    reason: "ACCOUNT_DEACTIVATED",
    act: async (u) => expectOk(await call("DELETE", `/api/users/${u.id}`, await admin.headers())),
  },
  {
    name: "POST /api/users/:id/deactivate",
    reason: "ACCOUNT_DEACTIVATED",
    act: async (u) => expectOk(await call("POST", `/api/users/${u.id}/deactivate`, await admin.headers())),
  },
  {
    name: "PUT /api/users/:id with is_active false",
    reason: "ACCOUNT_DEACTIVATED",
    act: async (u) => expectOk(await call("PUT", `/api/users/${u.id}`, await admin.headers(), { is_active: false })),
  },
  {
    name: "PUT /api/users/:id changing the role",
    reason: "ACCOUNT_CHANGED",
    act: async (u) => expectOk(await call("PUT", `/api/users/${u.id}`, await admin.headers(), { role: "admin" })),
  },
  {
    name: "PUT /api/users/:id/schools (district user's schools)",
    reason: "ACCOUNT_CHANGED",
    act: async (u) => {
      const school = await buildSchool(t.db);
      expectOk(await call("PUT", `/api/users/${u.id}/schools`, await admin.headers(), { schoolIds: [school.id] }));
    },
  },
  {
    name: "PUT /api/users/:id/school (school user's school)",
    reason: "ACCOUNT_CHANGED",
    role: "school_user",
    act: async (u) => {
      const school = await buildSchool(t.db);
      expectOk(await call("PUT", `/api/users/${u.id}/school`, await admin.headers(), { school_id: school.id }));
    },
  },
  {
    name: "POST /api/users/:id/reset-password with a password (admin sets it)",
    reason: "PASSWORD_CHANGED",
    act: async (u) =>
      expectOk(await call("POST", `/api/users/${u.id}/reset-password`, await admin.headers(), { password: "Another-Pass-91" })),
  },
  {
    name: "POST /api/auth/set-password (reset link)",
    reason: "PASSWORD_CHANGED",
    act: async (u) => {
      const token = await createOneTimeToken(t.ctx, u.id, "password_reset", 30);
      expectOk(await call("POST", "/api/auth/set-password", {}, { token, password: "Brand-New-Pass-72" }));
    },
  },
  {
    name: "a replayed refresh token (every session revoked)",
    reason: "SESSIONS_REVOKED",
    act: async (u) => {
      // Another sign-in of the same user signs out, then its retired refresh token comes back.
      const other = await loginAs(t.app, u);
      await call("POST", "/api/auth/logout", {}, { refreshToken: other.refreshToken });
      const replay = await call("POST", "/api/auth/refresh", {}, { refreshToken: other.refreshToken });
      expect(replay.statusCode).toBe(401);
    },
  },
];

function expectOk(res: { statusCode: number; body: string }) {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
}

describe("FORCE_LOGOUT on every path that ends a user's sessions", () => {
  for (const path of paths) {
    it(`${path.name}: ${path.reason} on every stream of the user, then the streams end`, async () => {
      const { user, session } = await signedInUser(path.role);
      const second = await loginAs(t.app, user);
      const bystander = await signedInUser();
      const streams = [await connected(session.token), await connected(second.token)];
      const other = await connected(bystander.session.token);

      await path.act(user, session);

      for (const s of streams) {
        await s.ended;
        const last = s.events.at(-1) as Notification;
        expect(last).toMatchObject({ type: "FORCE_LOGOUT", reason: path.reason });
        expect(last.id).toBeGreaterThan(0);
        expect(last.message).toBeTruthy();
        expect(s.ids.at(-1)).toBe(String(last.id));
        expect(forceLogouts(s)).toHaveLength(1);
      }
      // One stored row per change, for the poll and for reconnecting clients.
      const rows = await t.db.selectFrom("notifications").selectAll().where("user_id", "=", user.id).execute();
      expect(rows.map((r) => r.reason)).toEqual([path.reason]);
      // Someone else's stream heard nothing and is still open.
      await other.until((r) => r.comments.filter((c) => c === "heartbeat").length >= 2);
      expect(forceLogouts(other)).toEqual([]);
      other.close();
    });
  }

  it("sends nothing when the change rolls back, and the stream goes on", async () => {
    const { user, session } = await signedInUser();
    const s = await connected(session.token);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await signOutEverywhere(trx, user.id, "ACCOUNT_CHANGED");
        throw new Error("the admin's change failed");
      }),
    ).rejects.toThrow("the admin's change failed");
    expect(await t.db.selectFrom("notifications").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    // The next committed change is the first thing the stream hears.
    expectOk(await call("POST", `/api/users/${user.id}/deactivate`, await admin.headers()));
    await s.ended;
    expect(forceLogouts(s).map((e) => e.reason)).toEqual(["ACCOUNT_DEACTIVATED"]);
  });

  it("an edit that ends no session (a new username) sends nothing", async () => {
    const { user, session } = await signedInUser();
    const s = await connected(session.token);
    expectOk(await call("PUT", `/api/users/${user.id}`, await admin.headers(), { username: `${user.username}x` }));
    const beat = s.comments.length;
    await s.until((r) => r.comments.length >= beat + 2);
    expect(forceLogouts(s)).toEqual([]);
    s.close();
  });
});

describe("a stream ends when its sign-in does", () => {
  it("sign-out: that sign-in's stream is told STREAM_CLOSED SIGNED_OUT and ends; another sign-in of the user keeps its stream", async () => {
    const { user, session } = await signedInUser();
    const elsewhere = await loginAs(t.app, user);
    const s = await connected(session.token);
    const other = await connected(elsewhere.token);

    expectOk(await call("POST", "/api/auth/logout", {}, { refreshToken: session.refreshToken }));
    await s.ended;
    expect(s.events.map((e) => e.type)).toEqual(["CONNECTED", "STREAM_CLOSED"]);
    expect(s.events[1]).toMatchObject({ id: 0, reason: "SIGNED_OUT" });
    expect(s.events[1]?.message).toBeTruthy();
    // Nothing is stored: a sign-out concerns this sign-in only, not the user's other ones.
    expect(await t.db.selectFrom("notifications").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    const beats = other.comments.length;
    await other.until((r) => r.comments.length >= beats + 2);
    expect(other.done).toBe(false);
    other.close();
  });

  it("access-token expiry: the stream ends at the token's exp with STREAM_CLOSED TOKEN_EXPIRED; the refreshed token opens a new one", async () => {
    const { session } = await signedInUser();
    const s = await connected(session.token);
    clock.advance(LIMITS.accessTokenTtlSeconds * 1000 - 5000);
    const beats = s.comments.length;
    await s.until((r) => r.comments.length >= beats + 2);
    expect(s.done).toBe(false);

    clock.advance(5000);
    await s.ended;
    expect(s.events.map((e) => e.type)).toEqual(["CONNECTED", "STREAM_CLOSED"]);
    expect(s.events[1]).toMatchObject({ id: 0, reason: "TOKEN_EXPIRED" });
    const refreshed = await call("POST", "/api/auth/refresh", {}, { refreshToken: session.refreshToken });
    expectOk(refreshed);
    const again = await connected(refreshed.json().token);
    expect(again.events[0]?.type).toBe("CONNECTED");
    again.close();
  });
});

describe("Last-Event-ID: a reconnecting client gets what it missed", () => {
  it("a client whose sign-in was ended while it was away gets that FORCE_LOGOUT, then the stream ends", async () => {
    const { user, session } = await signedInUser();
    const first = await connected(session.token);
    first.close();
    expectOk(await call("POST", `/api/users/${user.id}/deactivate`, await admin.headers()));
    const again = await stream(session.token, { "last-event-id": "0" });
    await again.ended;
    expect(again.status).toBe(200);
    expect(again.events).toMatchObject([{ type: "FORCE_LOGOUT", reason: "ACCOUNT_DEACTIVATED" }]);
    // Having seen it, a further reconnect is simply refused.
    const seen = String(again.events[0]?.id);
    const refused = await stream(session.token, { "last-event-id": seen });
    await refused.ended;
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).code).toBe("ACCOUNT_INACTIVE");
  });

  it("a live sign-in gets the stored notifications after its Last-Event-ID, and none from before it began", async () => {
    const { user, session } = await signedInUser();
    // Stored before this sign-in: must never reach it.
    await announceForceLogout(t.db, user.id, "ACCOUNT_CHANGED", new Date(clock.now().getTime() - 60_000));
    // Stored after it began without ending it (as when the stream dropped just before a change
    // committed): the reconnect must deliver it.
    clock.advance(2000);
    await announceForceLogout(t.db, user.id, "SESSIONS_REVOKED", clock.now());
    const s = await stream(session.token, { "last-event-id": "0" });
    await s.ended;
    expect(s.events.map((e) => e.type)).toEqual(["CONNECTED", "FORCE_LOGOUT"]);
    expect(s.events[1]?.reason).toBe("SESSIONS_REVOKED");
  });

  it("a server-side failure while reading the replay sends ERROR and ends the stream", async () => {
    const { session } = await signedInUser();
    await sql`alter table notifications rename to notifications_away`.execute(t.db);
    try {
      const s = await stream(session.token, { "last-event-id": "5" });
      await s.ended;
      expect(s.events.map((e) => e.type)).toEqual(["CONNECTED", "ERROR"]);
      expect(s.events[1]?.message).toBeTruthy();
    } finally {
      await sql`alter table notifications_away rename to notifications`.execute(t.db);
    }
  });
});

describe("GET /api/notifications-poll", () => {
  const poll = (token: string) => call("GET", `/api/notifications-poll?token=${encodeURIComponent(token)}`);

  it("a client that missed the FORCE_LOGOUT gets it from the poll, on every tab that asks", async () => {
    const { user, session } = await signedInUser();
    const tab2 = await loginAs(t.app, user);
    expect((await poll(session.token)).json()).toEqual({ data: [] });
    expectOk(await call("PUT", `/api/users/${user.id}`, await admin.headers(), { role: "admin" }));
    for (const token of [session.token, session.token, tab2.token]) {
      const res = await poll(token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject([{ type: "FORCE_LOGOUT", reason: "ACCOUNT_CHANGED" }]);
    }
    // A new sign-in is not told of what ended the one before it.
    const fresh = await loginAs(t.app, user);
    expect((await poll(fresh.token)).json()).toEqual({ data: [] });
  });

  it("returns each notification once to a live sign-in (the per-user cursor), and forgets them after a day", async () => {
    const { user, session } = await signedInUser();
    clock.advance(2000);
    await announceForceLogout(t.db, user.id, "SESSIONS_REVOKED", clock.now());
    const first = await poll(session.token);
    expect(first.json().data).toMatchObject([{ type: "FORCE_LOGOUT", reason: "SESSIONS_REVOKED" }]);
    expect((await poll(session.token)).json()).toEqual({ data: [] });

    clock.advance(1000);
    await announceForceLogout(t.db, user.id, "ACCOUNT_CHANGED", clock.now());
    expect((await poll(session.token)).json().data.map((n: Notification) => n.reason)).toEqual(["ACCOUNT_CHANGED"]);

    // A day later the rows are deleted by the next poll (anyone's).
    clock.advance(24 * 60 * 60_000 + 5000);
    const later = await signedInUser();
    expect((await poll(later.session.token)).statusCode).toBe(200);
    expect(await t.db.selectFrom("notifications").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("answers 401 to a forged, expired or ended token, and without one", async () => {
    const { user, session } = await signedInUser();
    expect((await poll("not-a-token")).statusCode).toBe(401);
    expect((await call("GET", "/api/notifications-poll")).statusCode).toBe(401);
    expect((await poll("")).statusCode).toBe(401);
    // Ended with no stored reason (the sign-in was revoked by signing out): the guard's 401.
    await call("POST", "/api/auth/logout", {}, { refreshToken: session.refreshToken });
    const ended = await poll(session.token);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual({ error: MESSAGES.sessionExpired, code: "UNAUTHENTICATED" });
    const other = await loginAs(t.app, user);
    clock.advance((LIMITS.accessTokenTtlSeconds + 1) * 1000);
    expect((await poll(other.token)).json().code).toBe("TOKEN_EXPIRED");
  });
});
