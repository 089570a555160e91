import { describe, expect, it } from "vitest";
import { AUTHORIZATION_MATRIX } from "../../../test/authorization-matrix.table.js";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, STEP_MS, verify } from "../../../test/second-factor.js";
import { loginAs, type TestApp, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// REQUIRE_MFA_FOR_ADMINS: an admin or super admin without a second factor gets 403
// MFA_ENROLMENT_REQUIRED from every route behind a token guard, except those of enrolling.

const clock = manualClock(new Date(Date.UTC(2026, 0, 12, 9, 0, 15)));
const t = useTestApp({ clock, config: { requireMfaForAdmins: true } });
const relaxed = useTestApp({ config: { requireMfaForAdmins: false } });

/** Open to an admin who has yet to enrol: the profile, the enrolment, the session and its live connection. */
const ENROLMENT_ROUTES = new Set([
  "GET /api/auth/profile",
  "GET /api/auth/mfa",
  "POST /api/auth/mfa/reauth",
  "POST /api/auth/mfa/totp/enroll",
  "POST /api/auth/mfa/totp/confirm",
  "DELETE /api/auth/mfa/totp",
  "POST /api/auth/mfa/recovery-codes",
]);

// Public, though the anonymous caller gets 401 there: the token they check is in the body.
const BODY_TOKEN = new Set([
  "POST /api/auth/refresh",
  "POST /api/auth/mfa/verify",
  "POST /api/auth/oidc/exchange",
  "POST /api/auth/mfa/passkey/options",
  "POST /api/auth/mfa/passkey/verify",
]);

// The live connection (its own ?token= guard) carries FORCE_LOGOUT, which even an admin yet to
// enrol must get; the stream and the long poll stay open, so they are not asked here.
const LIVE_CONNECTION = new Set(["GET /api/notifications", "GET /api/notifications-poll"]);

/** Every route that needs a signed-in caller (the matrix gives the anonymous caller 401 there). */
function guardedRoutes(app: TestApp) {
  const routes = app.routes
    .filter((r) => r.method !== "HEAD" && r.url.startsWith("/api/"))
    .map((r) => ({ method: r.method, url: r.url, key: `${r.method} ${r.url}` }));
  return routes.filter((r) => {
    if (BODY_TOKEN.has(r.key)) return false;
    const anonymous = AUTHORIZATION_MATRIX[r.key]?.expect.anonymous;
    return anonymous === 401 || (Array.isArray(anonymous) && anonymous.every((s) => s === 401));
  });
}

async function answers(app: TestApp, headers: { authorization: string }) {
  const out: Array<{ key: string; status: number; code: unknown }> = [];
  for (const route of guardedRoutes(app).filter((r) => !LIVE_CONNECTION.has(r.key))) {
    const url = route.url.replace(/:[A-Za-z]+/g, "1").replace("*", "x");
    const res = await app.app.inject({ method: route.method as "GET", url, headers });
    let code: unknown;
    try {
      code = res.json<{ code?: unknown }>().code;
    } catch {
      code = undefined;
    }
    out.push({ key: route.key, status: res.statusCode, code });
  }
  return out;
}

describe("REQUIRE_MFA_FOR_ADMINS=on", () => {
  for (const role of ["admin", "super_admin"] as const) {
    it(`refuses a ${role} without a second factor on every guarded route but enrolment's, with MFA_ENROLMENT_REQUIRED`, async () => {
      const { headers, token } = await loginAs(t.app, await buildUser(t.db, { role }));
      expect(token).toBeTruthy();
      const replies = await answers(t, headers);
      expect(replies.length).toBeGreaterThan(40);
      const refused = replies.filter((r) => !ENROLMENT_ROUTES.has(r.key));
      for (const r of refused) expect({ key: r.key, status: r.status, code: r.code }).toEqual({ key: r.key, status: 403, code: "MFA_ENROLMENT_REQUIRED" });
      const open = replies.filter((r) => ENROLMENT_ROUTES.has(r.key));
      expect(open.map((r) => r.key).sort()).toEqual([...ENROLMENT_ROUTES].sort());
      for (const r of open) expect(r.code, r.key).not.toBe("MFA_ENROLMENT_REQUIRED");
      const status = await t.app.inject({ method: "GET", url: "/api/auth/mfa", headers });
      expect(status.json()).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0, required: true });
    }, 120_000);
  }

  it("lets the admin in everywhere once enrolled", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const signedIn = await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt());
    const replies = await answers(t, { authorization: `Bearer ${signedIn.json().token}` });
    expect(replies.filter((r) => r.code === "MFA_ENROLMENT_REQUIRED")).toEqual([]);
    expect(replies.find((r) => r.key === "GET /api/users")?.status).toBe(200);
  }, 120_000);

  it("asks nothing of school and district users", async () => {
    for (const role of ["school_user", "district_user"] as const) {
      const { headers } = await loginAs(t.app, await buildUser(t.db, { role }));
      const res = await t.app.inject({ method: "GET", url: "/api/schools", headers });
      expect(res.statusCode, role).toBe(200);
    }
  });
});

describe("REQUIRE_MFA_FOR_ADMINS=off", () => {
  it("lets an admin without a second factor in", async () => {
    const { headers } = await loginAs(relaxed.app, await buildUser(relaxed.db, { role: "admin" }));
    expect((await relaxed.app.inject({ method: "GET", url: "/api/users", headers })).statusCode).toBe(200);
    expect((await relaxed.app.inject({ method: "GET", url: "/api/auth/mfa", headers })).json().required).toBe(false);
  });
});
