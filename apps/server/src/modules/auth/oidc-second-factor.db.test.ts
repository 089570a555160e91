import type { MfaChallengeResponse, SignedInResponse } from "@tally/contract";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { startTestProvider, type TestProvider } from "../../../test/oidc-test-provider.js";
import { enrolTotp, reauth, STEP_MS, verify } from "../../../test/second-factor.js";
import { softwarePasskey } from "../../../test/software-authenticator.js";
import { exchangeSsoCode, providerAccount, ssoCode } from "../../../test/sso-flow.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { signAccessToken } from "./access-tokens.js";

// "An SSO sign-in counts as two factors only when the provider's `amr` says so": with one
// factor at the provider, an account with a second factor of its own is asked for it; with two,
// the sign-in is two-factor, also for REQUIRE_MFA_FOR_ADMINS.

const APP_URL = "http://localhost:3000";
const SECRET = "test-client-secret-0123456789-abcdef";
// Real time (the provider's tokens carry it), on a step's middle so codes are predictable.
const clock = manualClock(new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + 15_000));
let provider: TestProvider;

beforeAll(async () => {
  provider = await startTestProvider([{ clientId: "tally", clientSecret: SECRET, redirectUris: [`${APP_URL}/api/auth/oidc/school-idp/callback`] }], {});
});
afterAll(() => provider?.close());
// Each test's codes fall in a step of their own: a code is good once.
beforeEach(() => clock.advance(STEP_MS));

const t = useTestApp(() => ({
  clock,
  config: {
    appUrl: APP_URL,
    oidcAllowHttp: true,
    requireMfaForAdmins: true,
    oidcProviders: [{ id: "school-idp", name: "School ID", issuer: provider.issuer, clientId: "tally", clientSecret: SECRET, domains: [], requireSso: false }],
  },
}));

/** One provider account per address: the account is linked to the first one it signs in with. */
const accountOf = new Map<string, string>();

/** A single sign-on of `email` whose provider reports `amr` this time, to the answer of the exchange. */
async function ssoSignIn(email: string, amr?: string[]) {
  let id = accountOf.get(email);
  if (id === undefined) accountOf.set(email, (id = providerAccount(provider, email, amr)));
  provider.accounts[id] = { ...provider.accounts[id], amr };
  return exchangeSsoCode(t, await ssoCode(t, provider, id, "school-idp"));
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function successfulSignIns(userId: number) {
  return t.db
    .selectFrom("login_logs")
    .select(["login", "login_method", "provider", "multi_factor", "successful", "failure_reason"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

describe("single sign-on and the account's own second factor", () => {
  it("asks an enrolled account for its code when the provider's amr shows one factor; the code finishes it", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "Enrolled.Teacher@school.example" });
    const enrolled = await enrolTotp(t, user, clock);
    clock.advance(STEP_MS);
    const before = (await successfulSignIns(user.id)).length;

    const res = await ssoSignIn("enrolled.teacher@school.example", ["pwd"]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mfaRequired: true, challenge: expect.any(String), methods: ["totp", "recovery"] });
    expect(res.body).not.toMatch(/token/i);
    // Nothing is recorded until the second step.
    expect(await successfulSignIns(user.id)).toHaveLength(before);
    // The challenge keeps the method and the provider, each in a column of its own.
    expect(await t.db.selectFrom("mfa_challenges").select(["login_method", "oidc_provider"]).where("user_id", "=", user.id).execute()).toEqual([
      { login_method: "oidc", oidc_provider: "school-idp" },
    ]);

    const { challenge } = res.json<MfaChallengeResponse>();
    const wrong = String((Number(enrolled.codeAt()) + 1) % 1_000_000).padStart(6, "0");
    expect((await verify(t, challenge, wrong)).statusCode).toBe(401);
    const done = await verify(t, challenge, enrolled.codeAt());
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json<SignedInResponse>();
    expect(body.user.id).toBe(user.id);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: bearer(body.token) })).statusCode).toBe(200);

    // Both lines of the second step name the provider and the address it vouched for.
    expect((await successfulSignIns(user.id)).slice(before)).toEqual([
      { login: "enrolled.teacher@school.example", login_method: "oidc", provider: "school-idp", multi_factor: false, successful: false, failure_reason: "wrong_mfa_code" },
      { login: "enrolled.teacher@school.example", login_method: "oidc", provider: "school-idp", multi_factor: false, successful: true, failure_reason: null },
    ]);
    // The challenge is used up.
    expect((await verify(t, challenge, enrolled.codeAt())).statusCode).toBe(401);
  });

  it("treats a provider that sends no amr (Google) as one factor", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "no.amr@school.example" });
    await enrolTotp(t, user, clock);
    const res = await ssoSignIn("no.amr@school.example");
    expect(res.json()).toMatchObject({ mfaRequired: true });
  });

  it("lets a passkey finish the single sign-on's challenge instead of a code", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "passkey.person@school.example" });
    const { headers } = await loginAs(t.app, user);
    await enrolTotp(t, user, clock);
    await reauth(t, headers, { password: user.password });
    const rp = new URL(t.ctx.config.appUrl);
    const passkey = softwarePasskey(rp.hostname);
    const regOptions = (await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers })).json();
    const registered = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: passkey.register(regOptions, rp.origin) } });
    expect(registered.statusCode, registered.body).toBe(200);

    const res = await ssoSignIn("passkey.person@school.example", ["pwd"]);
    const { challenge, methods } = res.json<MfaChallengeResponse>();
    expect(methods).toEqual(["totp", "passkey", "recovery"]);
    const options = (await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge } })).json();
    const done = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge, response: passkey.assert(options, rp.origin) } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<SignedInResponse>().user.id).toBe(user.id);
    expect((await successfulSignIns(user.id)).at(-1)).toMatchObject({ login_method: "oidc", provider: "school-idp", successful: true });
  });

  it("gives the tokens directly when the provider's amr shows two factors (password and one-time code)", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "two.factors@school.example" });
    await enrolTotp(t, user, clock);
    const res = await ssoSignIn("two.factors@school.example", ["pwd", "otp"]);
    expect(res.statusCode).toBe(200);
    const body = res.json<SignedInResponse>();
    expect(body).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { id: user.id } });
    expect((await successfulSignIns(user.id)).at(-1)).toEqual({
      login: "two.factors@school.example",
      login_method: "oidc",
      provider: "school-idp",
      multi_factor: true,
      successful: true,
      failure_reason: null,
    });
  });

  it("signs an account with no second factor in on one factor, as before", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "one.factor@school.example" });
    const res = await ssoSignIn("one.factor@school.example", ["pwd"]);
    expect(res.json<SignedInResponse>().user.id).toBe(user.id);
  });
});

describe("REQUIRE_MFA_FOR_ADMINS and a single sign-on", () => {
  for (const role of ["admin", "super_admin"] as const) {
    it(`walks a ${role} without a second factor to enrolment after a one-factor sign-in (403 MFA_ENROLMENT_REQUIRED)`, async () => {
      const admin = await buildUser(t.db, { role, email: `one.factor.${role}@school.example` });
      const res = await ssoSignIn(`one.factor.${role}@school.example`, ["pwd"]);
      const { token, refreshToken } = res.json<SignedInResponse>();
      expect(decodeJwt(token).mf).toBeUndefined();
      const refused = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(token) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe("MFA_ENROLMENT_REQUIRED");
      const status = await t.app.inject({ method: "GET", url: "/api/auth/mfa", headers: bearer(token) });
      expect(status.json()).toMatchObject({ totp: false, required: true });
      // A refreshed token is the same sign-in: still one factor.
      const refreshed = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken } });
      const again = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(refreshed.json().token) });
      expect(again.json().code).toBe("MFA_ENROLMENT_REQUIRED");
      expect(decodeJwt(refreshed.json().token).mf).toBeUndefined();
      expect((await successfulSignIns(admin.id)).at(-1)).toMatchObject({ successful: true, multi_factor: false });
    });
  }

  it("lets an admin without Tally's second factor work after a sign-in the provider made with two factors, for that sign-in only", async () => {
    const admin = await buildUser(t.db, { role: "admin", email: "provider.mfa.admin@school.example" });
    const res = await ssoSignIn("provider.mfa.admin@school.example", ["mfa"]);
    const { token, refreshToken } = res.json<SignedInResponse>();
    const users = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(token) });
    expect(users.statusCode, users.body).toBe(200);
    const status = await t.app.inject({ method: "GET", url: "/api/auth/mfa", headers: bearer(token) });
    expect(status.json()).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0, required: false });

    // The sign-in stays two-factor across refreshes (the rotated tokens keep its family).
    const refreshed = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(refreshed.json().token) })).statusCode).toBe(200);

    // It is the sign-in that counts, not the account: a password sign-in is still walked to enrolment,
    // and so is the next single sign-on with one factor.
    const byPassword = await loginAs(t.app, admin);
    expect((await t.app.inject({ method: "GET", url: "/api/users", headers: byPassword.headers })).json().code).toBe("MFA_ENROLMENT_REQUIRED");
    const oneFactor = (await ssoSignIn("provider.mfa.admin@school.example", ["pwd"])).json<SignedInResponse>();
    expect((await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(oneFactor.token) })).json().code).toBe("MFA_ENROLMENT_REQUIRED");
  });

  it("keeps the provider's two factors on every refresh token of the sign-in and as the signed claim mf, which the guard reads", async () => {
    const admin = await buildUser(t.db, { role: "admin", email: "claim.admin@school.example" });
    const first = (await ssoSignIn("claim.admin@school.example", ["pwd", "otp"])).json<SignedInResponse>();
    expect(decodeJwt(first.token).mf).toBe(true);
    let { refreshToken } = first;
    for (let i = 0; i < 2; i++) {
      const refreshed = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken } });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(decodeJwt(refreshed.json().token).mf).toBe(true);
      refreshToken = refreshed.json().refreshToken;
    }
    const sessionId = String(decodeJwt(first.token).sid);
    const family = await t.db.selectFrom("refresh_tokens").select(["family_id", "provider_two_factor"]).where("user_id", "=", admin.id).execute();
    expect(family).toEqual(Array.from({ length: 3 }, () => ({ family_id: sessionId, provider_two_factor: true })));

    // A token of the same live sign-in without the claim (as issued before it existed) is one factor.
    const unclaimed = await signAccessToken(t.ctx.config.secretKey, clock.now(), {
      userId: admin.id,
      sessionVersion: admin.session_version,
      sessionId,
      providerTwoFactor: false,
    });
    const refused = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(unclaimed) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("MFA_ENROLMENT_REQUIRED");
  });

  it("asks an enrolled admin for the code after a one-factor single sign-on, and then lets them work", async () => {
    const admin = await buildUser(t.db, { role: "admin", email: "enrolled.admin@school.example" });
    const enrolled = await enrolTotp(t, admin, clock);
    clock.advance(STEP_MS);
    const { challenge } = (await ssoSignIn("enrolled.admin@school.example", ["pwd"])).json<MfaChallengeResponse>();
    const { token } = (await verify(t, challenge, enrolled.codeAt())).json<SignedInResponse>();
    expect((await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(token) })).statusCode).toBe(200);
  });
});
