import { LIMITS, MESSAGES, type SignedInResponse } from "@tally/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, reauth, STEP_MS, verify } from "../../../test/second-factor.js";
import { softwarePasskey } from "../../../test/software-authenticator.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// Issue 41, point 5: a session token alone (which a thief may hold) cannot add a second factor.
// Adding one needs a fresh proof from the same sign-in: the password, or a current code, within
// LIMITS.reauthFreshMinutes; removing one needs a current code in the request itself.

const clock = manualClock(new Date(Math.floor(Date.UTC(2026, 0, 12, 9) / STEP_MS) * STEP_MS + 15_000));
const t = useTestApp(() => ({ clock }));
beforeEach(() => clock.advance(STEP_MS));

const enroll = (headers: { authorization: string }) => t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers });
const passkeyOptions = (headers: { authorization: string }) => t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers });
const reauthReply = (headers: { authorization: string }, payload: object) => t.app.inject({ method: "POST", url: "/api/auth/mfa/reauth", headers, payload });
const REFUSED = { error: MESSAGES.reauthRequired, code: "REAUTH_REQUIRED" };

describe("adding a second factor needs a fresh proof", () => {
  it("refuses to start an authenticator app with the session token alone, and allows it for five minutes after the password", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const { headers } = await loginAs(t.app, user);
    const stolen = await enroll(headers);
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json()).toEqual(REFUSED);
    expect(await t.db.selectFrom("mfa_totp").select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);

    const wrong = await reauthReply(headers, { password: "not-the-password" });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: MESSAGES.reauthWrongPassword, code: "REAUTH_FAILED" });
    expect((await enroll(headers)).statusCode).toBe(403);

    await reauth(t, headers, { password: user.password });
    expect((await enroll(headers)).statusCode).toBe(200);
    clock.advance(LIMITS.reauthFreshMinutes * 60_000 + 1000);
    expect((await enroll(headers)).json()).toEqual(REFUSED);
  });

  it("keeps the proof to the sign-in that gave it: another session of the same account is still refused", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const mine = await loginAs(t.app, user);
    const thief = await loginAs(t.app, user);
    await reauth(t, mine.headers, { password: user.password });
    expect((await enroll(thief.headers)).json()).toEqual(REFUSED);
    expect((await enroll(mine.headers)).statusCode).toBe(200);
  });

  it("refuses a passkey of an enrolled account with the session token alone; a current code is a proof", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const signedIn = (await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt())).json<SignedInResponse>();
    const headers = { authorization: `Bearer ${signedIn.token}` };
    const stolen = await passkeyOptions(headers);
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json()).toEqual(REFUSED);
    expect(await t.db.selectFrom("mfa_passkey_registrations").select("user_id").where("user_id", "=", enrolled.user.id).execute()).toEqual([]);

    clock.advance(STEP_MS);
    const wrongCode = String((Number(enrolled.codeAt()) + 500_000) % 1_000_000).padStart(6, "0");
    const wrong = await reauthReply(headers, { code: wrongCode });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: MESSAGES.mfaInvalidCode, code: "REAUTH_FAILED" });
    expect((await passkeyOptions(headers)).statusCode).toBe(403);

    await reauth(t, headers, { code: enrolled.codeAt() });
    const options = await passkeyOptions(headers);
    expect(options.statusCode).toBe(200);
    const rp = new URL(t.ctx.config.appUrl);
    const added = await t.app.inject({
      method: "POST",
      url: "/api/auth/mfa/passkey/register",
      headers,
      payload: { response: softwarePasskey(rp.hostname).register(options.json(), rp.origin) },
    });
    expect(added.statusCode, added.body).toBe(200);
  });

  it("takes exactly one of the password and a code", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const { headers } = await loginAs(t.app, user);
    expect((await reauthReply(headers, {})).statusCode).toBe(400);
    expect((await reauthReply(headers, { password: user.password, code: "123456" })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/mfa/reauth", payload: { password: user.password } })).statusCode).toBe(401);
  });
});

describe("removing a second factor", () => {
  it("needs a current code in the request itself, so a session token alone removes nothing", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "school_user" }), clock);
    clock.advance(STEP_MS);
    const signedIn = (await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt())).json<SignedInResponse>();
    const headers = { authorization: `Bearer ${signedIn.token}` };
    // A fresh password proof is no current code: the factor stays.
    await reauth(t, headers, { password: enrolled.user.password });
    expect((await t.app.inject({ method: "DELETE", url: "/api/auth/mfa/totp", headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/mfa/recovery-codes", headers })).statusCode).toBe(400);
    expect(await t.db.selectFrom("mfa_totp").select("user_id").where("user_id", "=", enrolled.user.id).execute()).toHaveLength(1);
  });
});
