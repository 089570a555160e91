import { LIMITS, MESSAGES } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { type ReceivedMail, useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { settleBackgroundWork } from "../mail/background-mail.js";

const clock = manualClock(new Date("2026-04-06T08:00:00Z"));
const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ clock, mailer: smtp.mailer, config: { appUrl: "https://tally.example.org" } }));

/** The reply comes before the work; this waits for the work too, so the test can look at its result. */
async function forgot(email: unknown) {
  const res = await t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } });
  await settleBackgroundWork(t.ctx);
  return res;
}
const verifyReset = (token: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/verify-reset-token", payload: { token } });
/** The GET form, kept for older clients. */
const verifyResetByQuery = (token: string) =>
  t.app.inject({ method: "GET", url: `/api/auth/verify-reset-token?token=${encodeURIComponent(token)}` });
const setPassword = (token: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/set-password", payload: { token, password } });
const login = (name: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: name, password } });

function resetTokenIn(mail: ReceivedMail): string {
  // The token rides in the fragment, which browsers never send to the server.
  const match = /https:\/\/tally\.example\.org\/set-password#token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return match[1];
}

async function resetTokensOf(userId: number) {
  return t.db.selectFrom("one_time_tokens").selectAll().where("user_id", "=", userId).execute();
}

describe("password reset by e-mail", () => {
  it("mails a working, single-use link through a real SMTP server", async () => {
    const user = await buildUser(t.db, { role: "school_user", emailVerified: false });
    const before = await loginAs(t.app, user);

    const res = await forgot(user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.resetRequestSuccess });

    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(mail.subject).toBe("Reset your Tally password");
    const token = resetTokenIn(mail);
    // Only the digest is stored.
    const stored = await resetTokensOf(user.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toBe(token);
    expect(stored[0]?.purpose).toBe("password_reset");

    expect((await verifyReset(token)).json()).toEqual({ valid: true });
    expect((await verifyResetByQuery(token)).json()).toEqual({ valid: true });

    const weak = await setPassword(token, "password");
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe(MESSAGES.passwordTooWeak);
    expect((await verifyReset(token)).json()).toEqual({ valid: true });
    // Strong by the meter's rules, but on every attacker's list.
    for (const common of ["Password123!", "Qwertyuiop1!"]) {
      const refused = await setPassword(token, common);
      expect(refused.statusCode, common).toBe(400);
      expect(refused.json().error, common).toBe(MESSAGES.passwordTooCommon);
    }
    expect((await verifyReset(token)).json()).toEqual({ valid: true });

    const ok = await setPassword(token, "New-Secret-42");
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: MESSAGES.resetSuccess });

    expect((await login(user.username, "New-Secret-42")).statusCode).toBe(200);
    expect((await login(user.username, user.password)).statusCode).toBe(401);

    // Single use: the link is dead now.
    expect((await verifyReset(token)).json()).toEqual({ valid: false });
    expect((await verifyResetByQuery(token)).json()).toEqual({ valid: false });
    const again = await setPassword(token, "Another-Secret-43");
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: MESSAGES.resetInvalidLink, code: "INVALID_TOKEN" });

    // Every earlier session ends; the mailbox counts as verified.
    const old = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: before.headers });
    expect(old.json().code).toBe("SESSION_VERSION_MISMATCH");
    const oldRefresh = await t.app.inject({
      method: "POST",
      url: "/api/auth/refresh",
      payload: { refreshToken: before.refreshToken },
    });
    expect(oldRefresh.statusCode).toBe(401);
    const row = await t.db.selectFrom("users").select("email_verified").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email_verified).toBe(true);
  });

  it("expires the link after 60 minutes", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    await forgot(user.email);
    const token = resetTokenIn(await smtp.waitForMessage((m) => m.to.includes(user.email)));

    clock.advance((LIMITS.resetTokenTtlMinutes - 1) * 60_000);
    expect((await verifyReset(token)).json()).toEqual({ valid: true });
    clock.advance(2 * 60_000);
    expect((await verifyReset(token)).json()).toEqual({ valid: false });
    const res = await setPassword(token, "Late-Secret-99");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: MESSAGES.resetInvalidLink, code: "INVALID_TOKEN" });
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it("gives the same answer for unknown and deactivated addresses, and sends nothing", async () => {
    const inactive = await buildUser(t.db, { role: "admin", isActive: false });
    const known = await buildUser(t.db, { role: "admin" });
    const tokensBefore = await t.db.selectFrom("one_time_tokens").select("id").execute();

    const unknownRes = await forgot("no-such-person@example.test");
    const inactiveRes = await forgot(inactive.email);
    const knownRes = await forgot(known.email);
    expect(unknownRes.statusCode).toBe(200);
    expect(unknownRes.body).toBe(knownRes.body);
    expect(inactiveRes.body).toBe(knownRes.body);

    const tokensAfter = await t.db.selectFrom("one_time_tokens").select(["id", "user_id"]).execute();
    expect(tokensAfter.length - tokensBefore.length).toBe(1);
    expect(tokensAfter.at(-1)?.user_id).toBe(known.id);
  });

  it("stops mailing after five requests an hour but keeps answering the same", async () => {
    const user = await buildUser(t.db, { role: "district_user" });
    for (let i = 0; i < 7; i++) {
      const res = await forgot(user.email);
      expect(res.json()).toEqual({ message: MESSAGES.resetRequestSuccess });
    }
    expect(await resetTokensOf(user.id)).toHaveLength(5);
    clock.advance(61 * 60_000);
    await forgot(user.email);
    expect(await resetTokensOf(user.id)).toHaveLength(6);
  });

  it("refuses links for accounts deactivated since", async () => {
    const user = await buildUser(t.db, { role: "admin" });
    await forgot(user.email);
    const token = resetTokenIn(await smtp.waitForMessage((m) => m.to.includes(user.email)));
    await t.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id).execute();
    expect((await verifyReset(token)).json()).toEqual({ valid: false });
    expect((await setPassword(token, "Fresh-Secret-11")).statusCode).toBe(400);
  });

  it("answers bad input with 400 and the spec's texts", async () => {
    expect((await forgot("")).json()).toMatchObject({ error: MESSAGES.emailRequired });
    expect((await forgot(undefined)).json()).toMatchObject({ error: MESSAGES.emailRequired });
    expect((await forgot(12)).statusCode).toBe(400);
    for (const email of [`${"a".repeat(400)}@example.test`, "not-an-address", "two words@example.test"]) {
      const res = await forgot(email);
      expect(res.statusCode, email).toBe(400);
      expect(res.json(), email).toMatchObject({ error: MESSAGES.invalidEmail, code: "VALIDATION_ERROR" });
    }
    const noToken = await t.app.inject({ method: "GET", url: "/api/auth/verify-reset-token" });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().error).toBe(MESSAGES.resetNoToken);
    for (const payload of [{}, { token: "" }]) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/verify-reset-token", payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(MESSAGES.resetNoToken);
    }
    expect((await verifyReset("garbage")).json()).toEqual({ valid: false });
    expect((await verifyResetByQuery("garbage")).json()).toEqual({ valid: false });
    expect((await setPassword("garbage", "Strong-Enough-1")).json().code).toBe("INVALID_TOKEN");
    const missing = await t.app.inject({ method: "POST", url: "/api/auth/set-password", payload: { token: "x" } });
    expect(missing.statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: "POST",
      url: "/api/auth/set-password",
      payload: "{",
      headers: { "content-type": "application/json" },
    });
    expect(badJson.statusCode).toBe(400);
  });
});

describe("POST /api/auth/request-reset/:id", () => {
  it("lets admins mail a reset link, but not to super admins", async () => {
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const superAdmin = await buildUser(t.db, { role: "super_admin" });
    const target = await buildUser(t.db, { role: "school_user" });
    const send = (id: number | string, headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: `/api/auth/request-reset/${id}`, headers });

    const res = await send(target.id, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Password reset link has been sent" });
    const token = resetTokenIn(await smtp.waitForMessage((m) => m.to.includes(target.email)));
    expect((await verifyReset(token)).json()).toEqual({ valid: true });

    expect((await send(superAdmin.id, admin.headers)).statusCode).toBe(403);
    expect(await resetTokensOf(superAdmin.id)).toHaveLength(0);

    const asSuper = await loginAs(t.app, superAdmin);
    expect((await send(superAdmin.id, asSuper.headers)).statusCode).toBe(200);

    expect((await send(999_999, admin.headers)).statusCode).toBe(404);
    expect((await send("abc", admin.headers)).statusCode).toBe(400);
    expect((await send(target.id, {})).statusCode).toBe(401);
    const asSchoolUser = await loginAs(t.app, target);
    expect((await send(target.id, asSchoolUser.headers)).statusCode).toBe(403);
  });
});
