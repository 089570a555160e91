import { LIMITS, MESSAGES } from "@tally/contract";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, loginAs } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { bumpSessionVersion } from "./auth.service.js";

const clock = manualClock(new Date("2026-03-02T09:00:00Z"));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

const profile = (headers: Record<string, string>) => t.app.inject({ method: "GET", url: "/api/auth/profile", headers });
const refresh = (refreshToken: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken } });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("POST /api/auth/refresh", () => {
  it("rotates: the new pair works, the old refresh token is retired and linked to its successor", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const first = await loginAs(t.app, user);

    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await profile(bearer(second.token))).statusCode).toBe(200);

    const rows = await t.db
      .selectFrom("refresh_tokens")
      .select(["id", "revoked_at", "replaced_by_id"])
      .where("user_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]?.revoked_at).not.toBeNull();
    expect(rows[0]?.replaced_by_id).toBe(rows[1]?.id);
    expect(rows[1]?.revoked_at).toBeNull();
  });

  it("treats reuse of a rotated token as theft and ends every session of that user", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const otherDevice = await loginAs(t.app, user);
    const first = await loginAs(t.app, user);
    const second = (await refresh(first.refreshToken)).json();

    const replay = await refresh(first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("UNAUTHENTICATED");

    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    expect((await refresh(otherDevice.refreshToken)).statusCode).toBe(401);
    const live = await t.db
      .selectFrom("refresh_tokens")
      .select("id")
      .where("user_id", "=", user.id)
      .where("revoked_at", "is", null)
      .execute();
    expect(live).toEqual([]);
  });

  it("refuses unknown, expired and deactivated users' tokens", async () => {
    expect((await refresh("made-up-token")).statusCode).toBe(401);

    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    await t.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id).execute();
    const inactive = await refresh(session.refreshToken);
    expect(inactive.statusCode).toBe(401);
    expect(inactive.json().code).toBe("ACCOUNT_INACTIVE");

    const other = await buildUser(t.db, { role: "admin" });
    const old = await loginAs(t.app, other);
    clock.advance(LIMITS.refreshTokenTtlDays * 86_400_000 + 1000);
    const expired = await refresh(old.refreshToken);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe("TOKEN_EXPIRED");
  });

  it("answers malformed bodies with 400", async () => {
    for (const payload of [{}, { refreshToken: 5 }, { refreshToken: "" }]) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the refresh token", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      payload: { refreshToken: session.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
  });

  it("accepts a call without a token or body", async () => {
    expect((await t.app.inject({ method: "POST", url: "/api/auth/logout" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/logout", payload: {} })).statusCode).toBe(200);
  });
});

describe("access tokens", () => {
  it("stop working after a session-version bump, with the SESSION_VERSION_MISMATCH code", async () => {
    const user = await buildUser(t.db, { role: "district_user" });
    const session = await loginAs(t.app, user);
    expect((await profile(session.headers)).statusCode).toBe(200);

    await bumpSessionVersion(t.db, user.id);
    const res = await profile(session.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: MESSAGES.sessionVersionMismatch, code: "SESSION_VERSION_MISMATCH" });
    // The bump also ends the refresh token, so the client cannot quietly get a new one.
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    // Signing in again gives a working session.
    expect((await profile((await loginAs(t.app, user)).headers)).statusCode).toBe(200);
  });

  it("are refused at once when the account is deactivated", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    await t.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id).execute();
    const res = await profile(session.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("ACCOUNT_INACTIVE");
  });

  it("expire after 15 minutes", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    clock.advance((LIMITS.accessTokenTtlSeconds - 60) * 1000);
    expect((await profile(session.headers)).statusCode).toBe(200);
    clock.advance(61_000);
    const res = await profile(session.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: MESSAGES.sessionExpired, code: "TOKEN_EXPIRED" });
    // The refresh token outlives it and brings the session back.
    const renewed = await refresh(session.refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect((await profile(bearer(renewed.json().token))).statusCode).toBe(200);
  });

  it("must be HS256, signed with our key, for our issuer and audience", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const now = Math.floor(clock.now().getTime() / 1000);
    const sign = (secret: string, iss = "tally", aud = "tally") =>
      new SignJWT({ sv: user.session_version })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(user.id))
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(secret));

    expect((await profile(bearer(await sign(t.ctx.config.secretKey)))).statusCode).toBe(200);
    expect((await profile(bearer(await sign("another-secret-that-is-long-enough-000000")))).statusCode).toBe(401);
    expect((await profile(bearer(await sign(t.ctx.config.secretKey, "someone-else")))).statusCode).toBe(401);
    expect((await profile(bearer(await sign(t.ctx.config.secretKey, "tally", "other-app")))).statusCode).toBe(401);

    // An unsigned token ("alg": "none") naming the same user.
    const unsigned = `${b64({ alg: "none" })}.${b64({ sub: String(user.id), sv: 1, iss: "tally", aud: "tally", exp: now + 600 })}.`;
    expect((await profile(bearer(unsigned))).statusCode).toBe(401);
  });
});
