import { LIMITS, MESSAGES } from "@tally/contract";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { signOutEverywhere } from "../users/accounts.service.js";

const clock = manualClock(new Date("2026-03-02T09:00:00Z"));
const t = useTestApp({ clock });

const profile = (headers: Record<string, string>) => t.app.inject({ method: "GET", url: "/api/auth/profile", headers });
const refresh = (refreshToken: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken } });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
const liveRefreshTokens = (userId: number) =>
  t.db.selectFrom("refresh_tokens").select("id").where("user_id", "=", userId).where("revoked_at", "is", null).execute();
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { sid: string };

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

  it("gives a second tab presenting the same token within 30 s the same new pair, and keeps the sign-in", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const session = await loginAs(t.app, user);
    const firstTab = await refresh(session.refreshToken);
    clock.advance(20_000);
    const secondTab = await refresh(session.refreshToken);
    expect([firstTab.statusCode, secondTab.statusCode]).toEqual([200, 200]);
    expect(secondTab.json().refreshToken).toBe(firstTab.json().refreshToken);
    expect((await profile(bearer(firstTab.json().token))).statusCode).toBe(200);
    expect((await profile(bearer(secondTab.json().token))).statusCode).toBe(200);
    // Nothing was taken for theft: the shared successor rotates on as usual.
    const next = await refresh(firstTab.json().refreshToken);
    expect(next.statusCode).toBe(200);
    expect((await profile(bearer(next.json().token))).statusCode).toBe(200);
  });

  it("answers two tabs refreshing at the same moment with one successor", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    const replies = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(replies.map((r) => r.json().refreshToken)).size).toBe(1);
    const live = await liveRefreshTokens(user.id);
    expect(live).toHaveLength(1);
  });

  it("never lets a token retired by sign-out back in, even within the grace window", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, user);
    const rotated = (await refresh(session.refreshToken)).json();
    await t.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: rotated.refreshToken } });
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
  });

  it("treats reuse of a rotated token after the grace window as theft and ends every session of that user", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const otherDevice = await loginAs(t.app, user);
    const first = await loginAs(t.app, user);
    const second = (await refresh(first.refreshToken)).json();

    clock.advance(31_000);
    const replay = await refresh(first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("UNAUTHENTICATED");

    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    expect((await refresh(otherDevice.refreshToken)).statusCode).toBe(401);
    const live = await liveRefreshTokens(user.id);
    expect(live).toEqual([]);
    // The access tokens of those sign-ins end with them.
    expect((await profile(bearer(second.token))).statusCode).toBe(401);
    expect((await profile(otherDevice.headers)).statusCode).toBe(401);
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

  it("ends the sign-in's access token at once, and only that sign-in's", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const laptop = await loginAs(t.app, user);
    const phone = await loginAs(t.app, user);
    const rotated = (await refresh(laptop.refreshToken)).json();
    expect((await profile(bearer(rotated.token))).statusCode).toBe(200);

    await t.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: rotated.refreshToken } });
    // Both access tokens of the laptop's sign-in, the first and the rotated one, stop working.
    for (const token of [laptop.token, rotated.token]) {
      const res = await profile(bearer(token));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: MESSAGES.sessionExpired, code: "UNAUTHENTICATED" });
    }
    expect((await profile(phone.headers)).statusCode).toBe(200);
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

    await signOutEverywhere(t.db, user.id, "SESSIONS_REVOKED");
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
    const { sid } = claimsOf((await loginAs(t.app, user)).token);
    const now = Math.floor(clock.now().getTime() / 1000);
    const sign = (secret: string, iss = "tally", aud = "tally") =>
      new SignJWT({ sv: user.session_version, sid })
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
    const unsigned = `${b64({ alg: "none" })}.${b64({ sub: String(user.id), sv: 1, sid, iss: "tally", aud: "tally", exp: now + 600 })}.`;
    expect((await profile(bearer(unsigned))).statusCode).toBe(401);
  });

  it("must carry exp, iat, sub and sid, and claim no longer life than 15 minutes", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const { sid } = claimsOf((await loginAs(t.app, user)).token);
    const now = Math.floor(clock.now().getTime() / 1000);
    const ttl = LIMITS.accessTokenTtlSeconds;
    type Claims = { sub?: string; sid?: string; iat?: number; exp?: number };
    const sign = (claims: Claims) => {
      const jwt = new SignJWT({ sv: user.session_version, ...(claims.sid ? { sid: claims.sid } : {}) })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("tally")
        .setAudience("tally");
      if (claims.sub) jwt.setSubject(claims.sub);
      if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
      if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
      return jwt.sign(new TextEncoder().encode(t.ctx.config.secretKey));
    };
    const valid: Claims = { sub: String(user.id), sid, iat: now, exp: now + ttl };
    expect((await profile(bearer(await sign(valid)))).statusCode).toBe(200);

    const refused: Array<[string, Claims]> = [
      ["no exp", { ...valid, exp: undefined }],
      ["no iat", { ...valid, iat: undefined }],
      ["no sub", { ...valid, sub: undefined }],
      ["no sid", { ...valid, sid: undefined }],
      ["exp years ahead", { ...valid, exp: now + 5 * 365 * 86_400 }],
      ["a life longer than 15 minutes", { ...valid, exp: now + ttl + 60 }],
      ["issued in the future", { ...valid, iat: now + 3600, exp: now + 3600 + ttl }],
      ["a sign-in that does not exist", { ...valid, sid: "00000000-0000-0000-0000-000000000000" }],
    ];
    for (const [why, claims] of refused) {
      expect((await profile(bearer(await sign(claims)))).statusCode, why).toBe(401);
    }
  });
});
