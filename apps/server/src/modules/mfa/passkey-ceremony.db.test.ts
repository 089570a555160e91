import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, reauth, STEP_MS } from "../../../test/second-factor.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { softwarePasskey } from "../../../test/software-authenticator.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// The whole ceremony against a software authenticator: registration (audited and mailed),
// a sign-in with it, and the refusals a real attacker would try (a replayed assertion, another
// origin, another account's passkey, an answer for another sign-in).

const clock = manualClock(new Date(Date.UTC(2026, 0, 12, 9, 0, 15)));
const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ clock, mailer: smtp.mailer }));
const rp = () => new URL(t.ctx.config.appUrl);

async function registered() {
  const user = await buildUser(t.db, { role: "admin" });
  const { headers } = await loginAs(t.app, user);
  clock.advance(STEP_MS);
  const enrolled = await enrolTotp(t, user, clock);
  await reauth(t, headers, { password: user.password });
  const passkey = softwarePasskey(rp().hostname);
  const options = (await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers })).json();
  const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: passkey.register(options, rp().origin) } });
  expect(res.statusCode, res.body).toBe(200);
  return { ...enrolled, passkey, headers };
}

async function signInOptions(challenge: string) {
  const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/options", payload: { challenge } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ challenge: string }>();
}
const verifyPasskey = (challenge: string, response: unknown) => t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/verify", payload: { challenge, response } });

describe("a passkey, end to end", () => {
  it("is registered (audited, mailed, counted) and finishes a sign-in with the usual token pair", async () => {
    const { user, passkey, headers } = await registered();
    const rows = await t.db.selectFrom("mfa_passkeys").selectAll().where("user_id", "=", user.id).execute();
    expect(rows.map((r) => r.credential_id)).toEqual([passkey.credentialId]);
    const audit = await t.db.selectFrom("audit_log").select(["action", "actor_id"]).where("action", "=", "mfa.passkey.registered").where("entity_id", "=", String(user.id)).execute();
    expect(audit).toEqual([{ action: "mfa.passkey.registered", actor_id: user.id }]);
    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email) && /passkey was added/.test(m.subject));
    expect(mail.text).toContain("instead of a code");
    expect((await t.app.inject({ method: "GET", url: "/api/auth/mfa", headers })).json().passkeys).toBe(1);

    const challenge = await passwordStep(t, user);
    const options = await signInOptions(challenge);
    const res = await verifyPasskey(challenge, passkey.assert(options, rp().origin));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { id: user.id } });
    const stored = await t.db.selectFrom("mfa_passkeys").select("counter").where("credential_id", "=", passkey.credentialId).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);
    // The challenge is used up by that sign-in.
    expect((await verifyPasskey(challenge, passkey.assert(options, rp().origin))).statusCode).toBe(401);
  });

  it("refuses a replayed counter, another origin, an answer for another sign-in, and another account's passkey", async () => {
    const a = await registered();
    const b = await registered();
    const challenge = await passwordStep(t, a.user);
    const options = await signInOptions(challenge);
    const refusals = [
      a.passkey.assert(options, "https://evil.example"),
      a.passkey.assert({ challenge: "c29tZS1vdGhlci1zaWduLWlu" }, rp().origin),
      b.passkey.assert(options, rp().origin),
    ];
    for (const response of refusals) {
      const res = await verifyPasskey(challenge, response);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("INVALID_MFA_CODE");
    }
    expect((await verifyPasskey(challenge, a.passkey.assert(options, rp().origin, 7))).statusCode).toBe(200);

    // A clone, or a replay, carries a counter not above the stored one.
    const again = await passwordStep(t, a.user);
    const next = await signInOptions(again);
    const replay = await verifyPasskey(again, a.passkey.assert(next, rp().origin, 7));
    expect(replay.statusCode).toBe(401);
    expect((await verifyPasskey(again, a.passkey.assert(next, rp().origin, 8))).statusCode).toBe(200);
  });

  it("refuses the same credential registered twice", async () => {
    const { passkey, headers } = await registered();
    const options = (await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register/options", headers })).json();
    expect(options.excludeCredentials).toEqual([{ id: passkey.credentialId, type: "public-key", transports: ["internal"] }]);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/passkey/register", headers, payload: { response: passkey.register(options, rp().origin) } });
    expect(res.statusCode).toBe(400);
  });
});
