import { LIMITS, MESSAGES } from "@tally/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, reauth, STEP_MS } from "../../../test/second-factor.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { takePasskeyCounter } from "./passkeys.repository.js";

// The options the server hands out, their binding to the sign-in, and refusals of answers no
// authenticator made. The full ceremony: passkey-ceremony.db.test.ts (a software authenticator)
// and the browser journey e2e/passkey-sign-in.e2e.test.ts (Chromium's virtual authenticator).
const clock = manualClock(new Date(Math.floor(Date.UTC(2026, 0, 12, 9) / STEP_MS) * STEP_MS + 15_000));
const t = useTestApp({ clock });
beforeEach(() => clock.advance(STEP_MS));

/** A fake credential's answer: right in outline, signed by nobody. */
const forgedAssertion = (id: string) => ({
  id,
  rawId: id,
  type: "public-key",
  clientExtensionResults: {},
  response: { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA" },
});

async function addPasskeyRow(userId: number, credentialId: string, counter = 5) {
  await t.db
    .insertInto("mfa_passkeys")
    .values({ credential_id: credentialId, user_id: userId, public_key: "pQECAyYgASFYIA", counter, transports: "internal", created_at: clock.now(), last_used_at: null })
    .execute();
}

describe("adding a passkey", () => {
  it("needs two-step sign-in on first, then answers creation options for Tally at APP_URL", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const { headers } = await loginAs(t.app, user);
    await reauth(t, headers, { password: user.password });
    const refused = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(MESSAGES.passkeyNeedsTotp);

    await enrolTotp(t, user, clock);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers });
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options.rp).toEqual({ name: "Tally", id: new URL(t.ctx.config.appUrl).hostname });
    expect(options.user.name).toBe(user.username);
    expect(options.challenge).toMatch(/^[\w-]{20,}$/);
    expect(options.attestation).toBe("none");
    const pending = await t.db.selectFrom("mfa_passkey_registrations").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(pending.challenge).toBe(options.challenge);
  });

  it("refuses an answer that no authenticator signed, and one without options asked for; nothing is kept", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const { headers } = await loginAs(t.app, user);
    await enrolTotp(t, user, clock);
    await reauth(t, headers, { password: user.password });
    const answer = { id: "AAAA", rawId: "AAAA", type: "public-key", clientExtensionResults: {}, response: { clientDataJSON: "e30", attestationObject: "oA" } };
    const noOptions = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: answer } });
    expect(noOptions.statusCode).toBe(400);
    await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers });
    const forged = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: answer } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe(MESSAGES.passkeyRegistrationFailed);
    const malformed = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: { id: "x" } } });
    expect(malformed.statusCode).toBe(400);
    expect(await t.db.selectFrom("mfa_passkeys").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
    const audit = await t.db.selectFrom("audit_log").select("action").where("action", "=", "mfa.passkey.registered").execute();
    expect(audit).toEqual([]);
  });

  it("is signed-in only", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options" });
    expect(res.statusCode).toBe(401);
  });
});

describe("signing in with a passkey", () => {
  it("offers passkey among the methods only once one is registered, and options bound to the sign-in", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    const before = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: enrolled.user.username, password: enrolled.user.password } });
    expect(before.json().methods).toEqual(["totp", "recovery"]);
    const noPasskey = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge: before.json().challenge } });
    expect(noPasskey.statusCode).toBe(400);
    expect(noPasskey.json().error).toBe(MESSAGES.passkeyNone);

    await addPasskeyRow(enrolled.user.id, "cred-one");
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: enrolled.user.username, password: enrolled.user.password } });
    expect(login.json().methods).toEqual(["totp", "passkey", "recovery"]);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge: login.json().challenge } });
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options.rpId).toBe(new URL(t.ctx.config.appUrl).hostname);
    expect(options.allowCredentials).toEqual([{ id: "cred-one", type: "public-key", transports: ["internal"] }]);
    const bound = await t.db.selectFrom("mfa_challenges").select("webauthn_challenge").where("user_id", "=", enrolled.user.id).where("webauthn_challenge", "is not", null).execute();
    expect(bound.map((b) => b.webauthn_challenge)).toEqual([options.challenge]);
  });

  it("refuses options for an unknown challenge, and an answer not signed by the passkey, counting it as a wrong code", async () => {
    const unknown = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge: "not-a-challenge" } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe("MFA_CHALLENGE_INVALID");

    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    await addPasskeyRow(enrolled.user.id, "cred-two");
    const challenge = await passwordStep(t, enrolled.user);
    // Without options asked for there is no WebAuthn challenge to sign: refused.
    const early = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge, response: forgedAssertion("cred-two") } });
    expect(early.statusCode).toBe(401);
    await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge } });
    for (const id of ["cred-two", "someone-elses"]) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge, response: forgedAssertion(id) } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("INVALID_MFA_CODE");
      expect(res.json()).not.toHaveProperty("token");
    }
    const logs = await t.db.selectFrom("login_logs").select("failure_reason").where("user_id", "=", enrolled.user.id).where("successful", "=", false).execute();
    expect(logs.map((l) => l.failure_reason)).toEqual(["wrong_mfa_code", "wrong_mfa_code", "wrong_mfa_code"]);
    // The challenge is not used up: a code still finishes the sign-in.
    clock.advance(STEP_MS);
    const ok = await t.app.inject({ method: "POST", url: "/api/auth/mfa/verify", payload: { challenge, code: enrolled.codeAt() } });
    expect(ok.statusCode).toBe(200);
  });

  it("counts passkey answers on the second-factor counter: of 20 in parallel, 5 are checked, the rest get 429", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    await addPasskeyRow(enrolled.user.id, "cred-burst");
    const challenge = await passwordStep(t, enrolled.user);
    await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge } });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge, response: forgedAssertion("cred-burst") } })),
    );
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.mfaFailuresPerAccount);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LIMITS.mfaFailuresPerAccount);
  });

  it("names the field of a malformed answer", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge: "x", response: { id: "a", rawId: "a", type: "other", response: {} } } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("response");
  });

  it("takes a signature counter only upwards, once (a replay or a clone is refused)", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    await addPasskeyRow(user.id, "cred-three", 5);
    expect(await takePasskeyCounter(t.db, "cred-three", 5, clock.now())).toBe(false);
    expect(await takePasskeyCounter(t.db, "cred-three", 4, clock.now())).toBe(false);
    const parallel = await Promise.all([6, 6, 6].map((n) => takePasskeyCounter(t.db, "cred-three", n, clock.now())));
    expect(parallel.filter(Boolean)).toHaveLength(1);
    await addPasskeyRow(user.id, "cred-no-counter", 0);
    expect(await takePasskeyCounter(t.db, "cred-no-counter", 0, clock.now())).toBe(true);
  });

  it("goes with two-step sign-in: turning it off or an admin's reset removes the passkeys", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const { headers } = await loginAs(t.app, user);
    const enrolled = await enrolTotp(t, user, clock);
    await addPasskeyRow(enrolled.user.id, "cred-four");
    clock.advance(STEP_MS);
    const off = await t.app.inject({ method: "DELETE", url: "/api/auth/mfa/totp", headers, payload: { code: enrolled.codeAt() } });
    expect(off.statusCode).toBe(200);
    expect(await t.db.selectFrom("mfa_passkeys").selectAll().where("user_id", "=", enrolled.user.id).execute()).toEqual([]);
  });
});
