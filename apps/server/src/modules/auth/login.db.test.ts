import { LIMITS, MESSAGES, sessionUserSchema } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";

const t = useTestApp();

let ipCounter = 0;
/** Each test signs in from its own address so the per-client limit of one test cannot leak into another. */
const freshIp = () => `10.1.0.${++ipCounter}`;

function attempt(login: string, password: string, opts: { ip?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { login, password },
    remoteAddress: opts.ip ?? "127.0.0.1",
    headers: opts.headers,
  });
}

describe("POST /api/auth/login", () => {
  it("answers unknown user, wrong password and deactivated user with the same 401 body", async () => {
    const ip = freshIp();
    const active = await buildUser(t.db, { role: "admin" });
    const inactive = await buildUser(t.db, { role: "admin", isActive: false });

    const unknown = await attempt("nobody-here", "whatever-password", { ip });
    const wrong = await attempt(active.username, "not-the-password", { ip });
    const deactivated = await attempt(inactive.username, inactive.password, { ip });

    for (const res of [unknown, wrong, deactivated]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: MESSAGES.invalidCredentials, code: "INVALID_CREDENTIALS" });
    }
    expect(wrong.body).toBe(unknown.body);
    expect(deactivated.body).toBe(unknown.body);

    const logs = await t.db
      .selectFrom("login_logs")
      .select(["user_id", "login", "successful", "failure_reason", "login_method"])
      .where("ip_address", "=", ip)
      .orderBy("id")
      .execute();
    expect(logs).toEqual([
      { user_id: null, login: "nobody-here", successful: false, failure_reason: "unknown_user", login_method: "username" },
      { user_id: active.id, login: active.username, successful: false, failure_reason: "wrong_password", login_method: "username" },
      { user_id: inactive.id, login: inactive.username, successful: false, failure_reason: "inactive", login_method: "username" },
    ]);
  });

  it("signs in by username or e-mail regardless of case, and logs the success", async () => {
    const school = await buildSchool(t.db, { name: "Harbour High" });
    const user = await buildUser(t.db, {
      role: "school_user",
      username: "MixedCase",
      email: "Mixed.Case@Example.Test",
      schoolId: school.id,
    });
    const ip = freshIp();

    const byName = await attempt("mixedcase", user.password, { ip, headers: { "user-agent": "vitest-agent" } });
    expect(byName.statusCode).toBe(200);
    const byEmail = await attempt("  MIXED.case@example.TEST ", user.password, { ip });
    expect(byEmail.statusCode).toBe(200);

    const body = byEmail.json();
    expect(typeof body.token).toBe("string");
    expect(typeof body.refreshToken).toBe("string");
    const sessionUser = sessionUserSchema.parse(body.user);
    expect(sessionUser).toMatchObject({
      id: user.id,
      username: "MixedCase",
      role: "school_user",
      school_id: school.id,
      school_name: "Harbour High",
      accessibleSchoolIds: [school.id],
      accessibleSchools: [{ id: school.id, name: "Harbour High" }],
    });
    expect(sessionUser.permissions.viewSchoolDashboard).toBe(true);
    expect(sessionUser.permissions.manageUsers).toBe(false);
    expect(sessionUser.last_login).not.toBeNull();

    const logs = await t.db.selectFrom("login_logs").selectAll().where("ip_address", "=", ip).orderBy("id").execute();
    expect(logs.map((l) => [l.user_id, l.login, l.login_method, l.successful, l.failure_reason])).toEqual([
      [user.id, "mixedcase", "username", true, null],
      [user.id, "mixed.case@example.test", "email", true, null],
    ]);
    expect(logs[0]?.user_agent).toBe("vitest-agent");

    const row = await t.db.selectFrom("users").select("last_login").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.last_login).toBeInstanceOf(Date);
  });

  it("locks an account at one address after repeated failures, even for the right password; X-Forwarded-For does not help, and the owner still gets in from elsewhere", async () => {
    const user = await buildUser(t.db, { role: "district_user" });
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      const res = await attempt(user.username, "wrong-password", {
        ip,
        headers: { "x-forwarded-for": `203.0.113.${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    // Same account by e-mail, with a new forwarded-for header: no trusted proxy, so it is ignored.
    const locked = await attempt(user.email.toUpperCase(), user.password, {
      ip,
      headers: { "x-forwarded-for": "198.51.100.99" },
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: MESSAGES.tooManyAttempts, code: "RATE_LIMITED" });

    const last = await t.db
      .selectFrom("login_logs")
      .select(["failure_reason", "user_id", "ip_address"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ failure_reason: "rate_limited", user_id: user.id, ip_address: ip });

    // The lock is on (account, address): someone else's failures never lock the owner out.
    expect((await attempt(user.username, user.password, { ip: freshIp() })).statusCode).toBe(200);

    // Unknown accounts are limited the same way, so the limit reveals nothing either.
    const ghostIp = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) await attempt("ghost-account", "x", { ip: ghostIp });
    expect((await attempt("ghost-account", "x", { ip: ghostIp })).statusCode).toBe(429);
  });

  it("locks a client address after many failures across accounts; X-Forwarded-For cannot dodge it", async () => {
    const ip = freshIp();
    const user = await buildUser(t.db, { role: "admin" });
    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      const res = await attempt(`stranger-${i}`, "guess", { ip, headers: { "x-forwarded-for": `192.0.2.${i}` } });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await attempt(user.username, user.password, { ip, headers: { "x-forwarded-for": "192.0.2.250" } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe("RATE_LIMITED");

    // The account itself is fine from anywhere else.
    expect((await attempt(user.username, user.password, { ip: freshIp() })).statusCode).toBe(200);
  });

  it("answers malformed bodies with 400, never 500", async () => {
    const cases = [
      { payload: "{not json", headers: { "content-type": "application/json" } },
      { payload: {}, headers: {} },
      { payload: { login: "someone" }, headers: {} },
      { payload: { login: 42, password: ["x"] }, headers: {} },
      { payload: [], headers: {} },
      { payload: { login: "", password: "" }, headers: {} },
      { payload: { login: "a".repeat(5000), password: "x" }, headers: {} },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: c.payload, headers: c.headers });
      expect(res.statusCode, JSON.stringify(c.payload)).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
    }
    const empty = await t.app.inject({ method: "POST", url: "/api/auth/login" });
    expect(empty.statusCode).toBe(400);
  });
});

describe("GET /api/auth/profile", () => {
  it("returns the session user with permissions and the district's school names", async () => {
    const a = await buildSchool(t.db, { name: "Beta Academy" });
    const b = await buildSchool(t.db, { name: "Alpha College" });
    const user = await buildUser(t.db, { role: "district_user", schoolIds: [a.id, b.id] });
    const session = await loginAs(t.app, user);

    const res = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: session.headers });
    expect(res.statusCode).toBe(200);
    const profile = sessionUserSchema.parse(res.json().user);
    expect(profile.role).toBe("district_user");
    expect(profile.school_id).toBeNull();
    expect(profile.accessibleSchools).toEqual([
      { id: b.id, name: "Alpha College" },
      { id: a.id, name: "Beta Academy" },
    ]);
    expect([...profile.accessibleSchoolIds].sort((x, y) => x - y)).toEqual([a.id, b.id].sort((x, y) => x - y));
    expect(profile.permissions).toMatchObject({ viewDistrictDashboard: true, viewAdminDashboard: false, manageUsers: false });
  });

  it("gives admins their management permissions", async () => {
    const admin = await buildUser(t.db, { role: "super_admin" });
    const session = await loginAs(t.app, admin);
    const res = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: session.headers });
    expect(res.json().user.permissions).toMatchObject({ manageUsers: true, uploadFlags: true, accessAdminArea: true });
  });

  it("refuses requests without a usable bearer token", async () => {
    for (const authorization of [undefined, "Bearer", "Basic abc", "Bearer not.a.jwt", "Bearer "]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/auth/profile",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: MESSAGES.unauthenticated, code: "UNAUTHENTICATED" });
    }
  });
});
