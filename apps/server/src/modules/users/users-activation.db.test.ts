import { MESSAGES } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { type ReceivedMail, useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { caller, type LoggedIn, loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { sessionVersionOf, userRow, userSchoolIds } from "../../../test/user-rows.js";
import type { Mailer } from "../../lib/mailer.js";

/** Set to make the next mails fail, as an unreachable mail server would. */
let mailDown = false;

const smtp = useSmtpTestServer();
const mailer: Mailer = {
  kind: "smtp",
  send: (m) => (mailDown ? Promise.reject(new Error("connection refused")) : smtp.mailer.send(m)),
};
const t = useTestApp({ mailer, config: { appUrl: "https://tally.example.org" } });
const call = caller(t);
const admin = useSignedIn(t, { role: "admin" });

const login = (name: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: name, password } });
const profile = (session: LoggedIn) => call("GET", "/api/auth/profile", session.headers);

function resetTokenIn(mail: ReceivedMail): string {
  const match = /https:\/\/tally\.example\.org\/set-password#token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return match[1];
}

async function resetMailFor(email: string): Promise<ReceivedMail> {
  return smtp.waitForMessage((m) => m.to.includes(email) && m.subject === "Reset your Tally password");
}

describe("deactivation", () => {
  for (const [method, path] of [
    ["DELETE", ""],
    ["POST", "/deactivate"],
  ] as const) {
    it(`${method} /api/users/:id${path} locks the user out at once and deletes nothing`, async () => {
      const school = await buildSchool(t.db);
      const user = await buildUser(t.db, { role: "district_user", schoolIds: [school.id] });
      const session = await loginAs(t.app, user);
      const version = await sessionVersionOf(t.db, user.id);

      const res = await call(method, `/api/users/${user.id}${path}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        message: `User ${user.username} has been deactivated successfully`,
        user: { id: user.id, is_active: false },
      });

      // The live access token is refused on its very next use, and so is the refresh token.
      const live = await profile(session);
      expect(live.statusCode).toBe(401);
      const refresh = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: session.refreshToken } });
      expect(refresh.statusCode).toBe(401);
      const again = await login(user.username, user.password);
      expect(again.statusCode).toBe(401);
      expect(again.json().error).toBe(MESSAGES.invalidCredentials);

      // Nothing is deleted: the row, its schools and its sign-in history remain.
      expect(await userRow(t.db, user.id)).toMatchObject({ username: user.username, is_active: false });
      expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
      expect(await userSchoolIds(t.db, user.id)).toEqual([school.id]);
      const logs = await call("GET", `/api/users/${user.id}/login-logs`, admin.headers);
      expect(logs.json().count).toBe(2);
      const list = await call("GET", "/api/users", admin.headers);
      expect(list.json().data.find((u: { id: number }) => u.id === user.id)).toMatchObject({ is_active: false });

      // Deactivating again is harmless and does not bump the version twice.
      expect((await call(method, `/api/users/${user.id}${path}`, admin.headers)).statusCode).toBe(200);
      expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
    });
  }
});

describe("reactivation", () => {
  it("POST /api/users/:id/reactivate lets the user in again and mails a working reset link", async () => {
    const user = await buildUser(t.db, { role: "school_user", isActive: false });
    const version = await sessionVersionOf(t.db, user.id);

    const res = await call("POST", `/api/users/${user.id}/reactivate`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: `User ${user.username} has been reactivated successfully and a password reset has been sent`,
      user: { id: user.id, is_active: true },
    });
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);

    const token = resetTokenIn(await resetMailFor(user.email));
    const check = await call("GET", `/api/auth/verify-reset-token?token=${encodeURIComponent(token)}`);
    expect(check.json()).toEqual({ valid: true });
    const set = await t.app.inject({ method: "POST", url: "/api/auth/set-password", payload: { token, password: "Back-Again-2026" } });
    expect(set.statusCode).toBe(200);
    expect((await login(user.username, "Back-Again-2026")).statusCode).toBe(200);
  });

  it("PUT /api/users/:id {is_active: true} reactivates and mails the link as well", async () => {
    const user = await buildUser(t.db, { role: "admin", isActive: false });
    const res = await call("PUT", `/api/users/${user.id}`, admin.headers, { is_active: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.is_active).toBe(true);
    const token = resetTokenIn(await resetMailFor(user.email));
    expect((await call("GET", `/api/auth/verify-reset-token?token=${encodeURIComponent(token)}`)).json()).toEqual({
      valid: true,
    });
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it("reports a mail failure as 502 while the reactivation itself stands", async () => {
    const user = await buildUser(t.db, { role: "school_user", isActive: false });
    mailDown = true;
    try {
      const res = await call("POST", `/api/users/${user.id}/reactivate`, admin.headers);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: "Failed to send password reset", code: "INTERNAL" });
    } finally {
      mailDown = false;
    }
    expect((await userRow(t.db, user.id)).is_active).toBe(true);
  });
});

describe("POST /api/users/:id/reset-password", () => {
  it("with a password: sets it, ends the user's sessions, and the new password works", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const session = await loginAs(t.app, user);
    const version = await sessionVersionOf(t.db, user.id);
    const url = `/api/users/${user.id}/reset-password`;

    for (const password of ["short", "", "1234567"]) {
      const weak = await call("POST", url, admin.headers, { password });
      expect(weak.statusCode, password).toBe(400);
      expect(weak.json().error).toBe(MESSAGES.passwordTooShort);
    }
    expect((await call("POST", url, admin.headers, { password: 12345678 })).statusCode).toBe(400);
    for (const password of ["12345678", "Password1", "password"]) {
      const common = await call("POST", url, admin.headers, { password });
      expect(common.statusCode, password).toBe(400);
      expect(common.json().error).toBe(MESSAGES.passwordTooCommon);
    }
    expect(await sessionVersionOf(t.db, user.id)).toBe(version);

    const res = await call("POST", url, admin.headers, { password: "quietriver8" });
    expect(res.statusCode).toBe(200);
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
    expect((await userRow(t.db, user.id)).password_hash).toMatch(/^\$argon2id\$/);
    expect((await profile(session)).json().code).toBe("SESSION_VERSION_MISMATCH");
    expect((await login(user.username, user.password)).statusCode).toBe(401);
    expect((await login(user.username, "quietriver8")).statusCode).toBe(200);
  });

  it("without a password: mails a reset link (and refuses deactivated accounts)", async () => {
    const user = await buildUser(t.db, { role: "district_user" });
    const version = await sessionVersionOf(t.db, user.id);
    for (const payload of [undefined, {}, { password: null }]) {
      const res = await call("POST", `/api/users/${user.id}/reset-password`, admin.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.passwordResetSent });
    }
    const token = resetTokenIn(await resetMailFor(user.email));
    expect((await call("GET", `/api/auth/verify-reset-token?token=${encodeURIComponent(token)}`)).json()).toEqual({
      valid: true,
    });
    // Only sending a link changes nothing about the account.
    expect(await sessionVersionOf(t.db, user.id)).toBe(version);

    const inactive = await buildUser(t.db, { role: "school_user", isActive: false });
    const refused = await call("POST", `/api/users/${inactive.id}/reset-password`, admin.headers);
    expect(refused.statusCode).toBe(400);
    expect(smtp.messages.some((m) => m.to.includes(inactive.email))).toBe(false);
  });
});
