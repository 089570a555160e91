import { LIMITS, MESSAGES } from "@tally/contract";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, reauth, STEP_MS, verify } from "../../../test/second-factor.js";
import { useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { openSecret } from "../../lib/secret-box.js";
import * as totp from "../mfa/totp.js";

// Every TOTP check is counted: a refused attempt must never reach it.
// A spy on the module's export, not vi.mock: the suites share one module graph per worker.
const totpChecks = { count: 0 };
const realCheckTotpCode = totp.checkTotpCode;
const spy = vi.spyOn(totp, "checkTotpCode").mockImplementation((...args: Parameters<typeof realCheckTotpCode>) => {
  totpChecks.count++;
  return realCheckTotpCode(...args);
});
afterAll(() => spy.mockRestore());

// The middle of a 30-second step, so ±1 step is exactly ±30 s.
const clock = manualClock(new Date(Math.floor(Date.UTC(2026, 0, 12, 9) / STEP_MS) * STEP_MS + 15_000));
const t = useTestApp({ clock });
beforeEach(() => {
  totpChecks.count = 0;
  // Each test starts a step later, so an enrolment's confirming code is never the one signed in with.
  clock.advance(STEP_MS);
});

let addresses = 0;
const freshAddress = () => `10.31.${Math.floor(++addresses / 250)}.${addresses % 250}`;

describe("enrolment", () => {
  it("hands out a key as text and QR code, turns on only with a right code, and answers ten recovery codes", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    const { loginAs } = await import("../../../test/test-app.js");
    const { headers } = await loginAs(t.app, user);
    await reauth(t, headers, { password: user.password });
    const enrol = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers });
    expect(enrol.statusCode).toBe(200);
    const { secret, otpauthUrl, qrSvg } = enrol.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Tally:/);
    expect(qrSvg).toMatch(/^<svg/);
    const stored = await t.db.selectFrom("mfa_totp").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(secret);
    expect(openSecret(t.ctx.config.secretKey, "mfa totp secret", stored.secret)).toBe(secret);
    expect(stored.confirmed_at).toBeNull();

    // Not on until confirmed: the password alone still signs in.
    expect((await loginAs(t.app, user)).token).toBeTruthy();
    const wrong = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/confirm", headers, payload: { code: "000000" } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("INVALID_MFA_CODE");
    const { totpCodeAt } = await import("../mfa/totp.js");
    const confirm = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/confirm", headers, payload: { code: totpCodeAt(secret, clock.now()) } });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json();
    expect(recoveryCodes).toHaveLength(LIMITS.mfaRecoveryCodeCount);
    expect(new Set(recoveryCodes).size).toBe(LIMITS.mfaRecoveryCodeCount);
    const hashes = await t.db.selectFrom("mfa_recovery_codes").select("code_hash").where("user_id", "=", user.id).execute();
    expect(hashes).toHaveLength(LIMITS.mfaRecoveryCodeCount);
    for (const code of recoveryCodes) expect(hashes.map((h) => h.code_hash)).not.toContain(code);

    const again = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers });
    expect(again.statusCode).toBe(409);
    const status = await t.app.inject({ method: "GET", url: "/api/auth/mfa", headers });
    expect(status.json()).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10, required: false });
  });
});

describe("signing in with a second factor", () => {
  it("answers a challenge and no tokens after the password, and the tokens only after the code", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: enrolled.user.username, password: enrolled.user.password } });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(body).toEqual({ mfaRequired: true, challenge: expect.any(String), methods: ["totp", "recovery"] });
    expect(login.body).not.toContain("token");

    const res = await verify(t, body.challenge, enrolled.codeAt());
    expect(res.statusCode).toBe(200);
    const { token, refreshToken, user } = res.json();
    expect(refreshToken).toBeTruthy();
    expect(user.id).toBe(enrolled.user.id);
    const profile = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: { authorization: `Bearer ${token}` } });
    expect(profile.statusCode).toBe(200);
    const history = await t.db.selectFrom("login_logs").select(["successful", "login_method"]).where("user_id", "=", enrolled.user.id).orderBy("id").execute();
    expect(history.at(-1)).toEqual({ successful: true, login_method: "username" });
  });

  it("accepts a code one step before or after, never two", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(4 * STEP_MS);
    const now = clock.now().getTime();
    const challenge = await passwordStep(t, enrolled.user);
    expect((await verify(t, challenge, enrolled.codeAt(new Date(now - 2 * STEP_MS)))).statusCode).toBe(401);
    expect((await verify(t, challenge, enrolled.codeAt(new Date(now + 2 * STEP_MS)))).statusCode).toBe(401);
    expect((await verify(t, challenge, enrolled.codeAt(new Date(now - STEP_MS)))).statusCode).toBe(200);
    // A step later than the one just used: still inside the window.
    expect((await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt(new Date(now + STEP_MS)))).statusCode).toBe(200);
  });

  it("refuses a code used once already, and an older one after a newer, even with a new challenge", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const code = enrolled.codeAt();
    expect((await verify(t, await passwordStep(t, enrolled.user), code)).statusCode).toBe(200);
    const replay = await verify(t, await passwordStep(t, enrolled.user), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: MESSAGES.mfaInvalidCode, code: "INVALID_MFA_CODE" });
    expect((await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt(new Date(clock.now().getTime() - STEP_MS)))).statusCode).toBe(401);
  });

  it("lets one of two parallel uses of the same code through", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const [a, b] = [await passwordStep(t, enrolled.user), await passwordStep(t, enrolled.user)];
    const code = enrolled.codeAt();
    const replies = await Promise.all([verify(t, a, code), verify(t, b, code)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it("uses a challenge once, and not after five minutes", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const challenge = await passwordStep(t, enrolled.user);
    expect((await verify(t, challenge, "123456")).statusCode).toBe(401);
    expect((await verify(t, challenge, enrolled.codeAt())).statusCode).toBe(200);
    clock.advance(STEP_MS);
    const used = await verify(t, challenge, enrolled.codeAt());
    expect(used.statusCode).toBe(401);
    expect(used.json()).toEqual({ error: MESSAGES.mfaChallengeExpired, code: "MFA_CHALLENGE_INVALID" });

    const late = await passwordStep(t, enrolled.user);
    clock.advance(LIMITS.mfaChallengeTtlMinutes * 60_000 + 1000);
    expect((await verify(t, late, enrolled.codeAt())).json().code).toBe("MFA_CHALLENGE_INVALID");
    expect((await verify(t, "not-a-challenge", enrolled.codeAt())).json().code).toBe("MFA_CHALLENGE_INVALID");
  });

  it("lets only mfaFailuresPerAccount of 40 parallel wrong codes reach the TOTP check, and then refuses the right one", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const challenge = await passwordStep(t, enrolled.user);
    totpChecks.count = 0;
    const right = enrolled.codeAt();
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
    const replies = await Promise.all(Array.from({ length: 40 }, () => verify(t, challenge, wrong, freshAddress())));
    expect(totpChecks.count).toBe(LIMITS.mfaFailuresPerAccount);
    const counts: Record<number, number> = {};
    for (const r of replies) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
    expect(counts).toEqual({ 401: LIMITS.mfaFailuresPerAccount, 429: 40 - LIMITS.mfaFailuresPerAccount });
    expect(replies.find((r) => r.statusCode === 429)?.json()).toEqual({ error: MESSAGES.mfaTooManyAttempts, code: "RATE_LIMITED" });

    // A new challenge (the password is known) does not reset the count, nor does the right code get checked.
    const blocked = await verify(t, await passwordStep(t, enrolled.user), right);
    expect(blocked.statusCode).toBe(429);
    expect(totpChecks.count).toBe(LIMITS.mfaFailuresPerAccount);
    const failures = await t.db.selectFrom("login_logs").select("failure_reason").where("user_id", "=", enrolled.user.id).where("successful", "=", false).execute();
    expect(failures.filter((f) => f.failure_reason === "wrong_mfa_code")).toHaveLength(LIMITS.mfaFailuresPerAccount);

    clock.advance(LIMITS.loginFailureWindowMinutes * 60_000);
    expect((await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt())).statusCode).toBe(200);
  });

  it("answers the limit with Retry-After set to what is left of its window, not the window's full length", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const challenge = await passwordStep(t, enrolled.user);
    const wrong = String((Number(enrolled.codeAt()) + 500_000) % 1_000_000).padStart(6, "0");
    // The window starts with the first wrong code.
    for (let i = 0; i < LIMITS.mfaFailuresPerAccount; i++) expect((await verify(t, challenge, wrong, freshAddress())).statusCode).toBe(401);
    const windowSeconds = LIMITS.loginFailureWindowMinutes * 60;
    const first = await verify(t, challenge, wrong, freshAddress());
    expect(first.statusCode).toBe(429);
    expect(first.headers["retry-after"]).toBe(String(windowSeconds));
    clock.advance(4 * 60_000 + 500);
    const later = await verify(t, challenge, wrong, freshAddress());
    expect(later.statusCode).toBe(429);
    expect(later.headers["retry-after"]).toBe(String(windowSeconds - 4 * 60));
  });

  it("names the field when the code is not a code", async () => {
    const res = await verify(t, "abc", "12");
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: "body.code", message: "Enter the 6-digit code or a recovery code" }]);
  });
});

describe("turning it off", () => {
  it("needs a current code, then the password alone signs in again", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "school_user" }), clock);
    clock.advance(STEP_MS);
    const signedIn = await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt());
    const headers = { authorization: `Bearer ${signedIn.json().token}` };
    clock.advance(STEP_MS);
    const wrong = await t.app.inject({ method: "DELETE", url: "/api/auth/mfa/totp", headers, payload: { code: "000000" } });
    expect(wrong.statusCode).toBe(401);
    const off = await t.app.inject({ method: "DELETE", url: "/api/auth/mfa/totp", headers, payload: { code: enrolled.codeAt() } });
    expect(off.statusCode).toBe(200);
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: enrolled.user.username, password: enrolled.user.password } });
    expect(login.json().token).toBeTruthy();
    expect(await t.db.selectFrom("mfa_recovery_codes").select("user_id").where("user_id", "=", enrolled.user.id).execute()).toEqual([]);
  });
});
