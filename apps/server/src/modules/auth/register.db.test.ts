import { MESSAGES, registerResponseSchema } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { type LoggedIn, loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";

const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ mailer: smtp.mailer }));
const admin = useSignedIn(t, { role: "admin" });
const superAdmin = useSignedIn(t, { role: "super_admin" });

let n = 0;
const fresh = (extra: Record<string, unknown> = {}) => {
  n++;
  return { username: `newuser${n}`, email: `new.user${n}@example.test`, password: "Welcome-Ferry-2026", ...extra };
};
const register = (payload: unknown, session: LoggedIn | undefined = admin) =>
  t.app.inject({ method: "POST", url: "/api/auth/register", payload: payload as object, headers: session?.headers });
const usersNamed = (username: string) =>
  t.db.selectFrom("users").select("id").where("username", "=", username).execute();

describe("POST /api/auth/register", () => {
  it("creates a school user, answers 201 with the session user, and mails a verification link", async () => {
    const school = await buildSchool(t.db, { name: "Riverside School" });
    const body = fresh({ role: "school_user", school_id: school.id });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    const parsed = registerResponseSchema.parse(res.json());
    expect(parsed.message).toBe("User created successfully");
    expect(parsed.user).toMatchObject({
      username: body.username,
      email: body.email,
      role: "school_user",
      school_id: school.id,
      school_name: "Riverside School",
      is_active: true,
      email_verified: false,
    });

    const mail = await smtp.waitForMessage((m) => m.to.includes(body.email));
    // Issue 29: the mail tells the person their username and how their password is set.
    expect(mail.subject).toBe("Your Tally account");
    expect(mail.text).toContain(`Your username: ${body.username}`);
    expect(mail.text).toContain(`You can also sign in with this e-mail address (${body.email}).`);
    expect(mail.text).toContain("the person who created your account has set one and will give it to you");
    expect(mail.text).toContain(`open ${t.ctx.config.appUrl}/login, choose "Forgot your password?"`);
    expect(mail.text).not.toContain(body.password);
    // The token rides in the fragment, which browsers never send to the server.
    const token = /\/verify#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    expect(mail.text).toContain(`${t.ctx.config.appUrl}/verify#token=`);

    const verified = await t.app.inject({ method: "POST", url: "/api/auth/verify", payload: { token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: MESSAGES.verifySuccess });
    const row = await t.db
      .selectFrom("users")
      .select("email_verified")
      .where("id", "=", parsed.user.id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified).toBe(true);

    const reused = await t.app.inject({ method: "POST", url: "/api/auth/verify", payload: { token } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ error: MESSAGES.verifyFailed, code: "INVALID_TOKEN" });
    // The GET form, kept for older links, refuses it too.
    const reusedByQuery = await t.app.inject({ method: "GET", url: `/api/auth/verify?token=${token}` });
    expect(reusedByQuery.json()).toEqual({ error: MESSAGES.verifyFailed, code: "INVALID_TOKEN" });
    const missing = await t.app.inject({ method: "GET", url: "/api/auth/verify" });
    expect(missing.json()).toMatchObject({ error: MESSAGES.verifyNoToken });
    const missingInBody = await t.app.inject({ method: "POST", url: "/api/auth/verify", payload: {} });
    expect(missingInBody.statusCode).toBe(400);
    expect(missingInBody.json()).toMatchObject({ error: MESSAGES.verifyNoToken });

    // The new account can sign in with the password it was given.
    expect((await loginAs(t.app, { username: body.username, password: body.password })).user.id).toBe(parsed.user.id);
  });

  it("gives a district user its schools, all of which must exist", async () => {
    const a = await buildSchool(t.db);
    const b = await buildSchool(t.db);
    const body = fresh({ role: "district_user", school_ids: [a.id, b.id, a.id] });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    const user = res.json().user;
    expect([...user.accessibleSchoolIds].sort()).toEqual([a.id, b.id].sort());
    expect(user.school_id).toBeNull();

    const bad = fresh({ role: "district_user", school_ids: [a.id, 987_654] });
    const refused = await register(bad);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("VALIDATION_ERROR");
    expect(await usersNamed(bad.username)).toEqual([]);
  });

  it("refuses a school user for a school that does not exist", async () => {
    const body = fresh({ role: "school_user", school_id: 424_242 });
    const res = await register(body);
    expect(res.statusCode).toBe(400);
    expect(await usersNamed(body.username)).toEqual([]);
  });

  it("lets only a super admin create a super admin", async () => {
    const body = fresh({ role: "super_admin" });
    const byAdmin = await register(body, admin);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().code).toBe("FORBIDDEN");
    expect(await usersNamed(body.username)).toEqual([]);
    expect((await register(body, superAdmin)).statusCode).toBe(201);
    expect((await register(fresh({ role: "admin" }), admin)).statusCode).toBe(201);
  });

  it("is closed to other roles and to strangers", async () => {
    const schoolUser = await loginAs(t.app, await buildUser(t.db, { role: "school_user" }));
    const district = await loginAs(t.app, await buildUser(t.db, { role: "district_user" }));
    expect((await register(fresh({ role: "admin" }), schoolUser)).statusCode).toBe(403);
    expect((await register(fresh({ role: "admin" }), district)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: "POST", url: "/api/auth/register", payload: fresh({ role: "admin" }) });
    expect(anonymous.statusCode).toBe(401);
  });

  it("refuses duplicate usernames and e-mails whatever their case", async () => {
    const existing = await buildUser(t.db, { role: "admin", username: "TakenName", email: "Taken@Example.Test" });
    const sameName = await register(fresh({ role: "admin", username: "takenNAME" }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({ error: "Username already exists", code: "CONFLICT" });
    const sameEmail = await register(fresh({ role: "admin", email: "TAKEN@example.test" }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({ error: "Email already exists", code: "CONFLICT" });
    expect(existing.id).toBeGreaterThan(0);
  });

  it("refuses a common password, also capitalised or with digits and symbols added", async () => {
    for (const password of ["password", "12345678", "Password1", "Password123!", "qwertyuiop"]) {
      const body = fresh({ role: "admin", password });
      const res = await register(body);
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toMatchObject({ error: MESSAGES.passwordTooCommon, code: "VALIDATION_ERROR" });
      expect(await usersNamed(body.username)).toEqual([]);
    }
  });

  it("answers invalid input with 400 and the spec's messages", async () => {
    const school = await buildSchool(t.db);
    const cases: Array<[Record<string, unknown>, string]> = [
      [fresh({ role: "admin", username: "ab" }), MESSAGES.usernameTooShort],
      [fresh({ role: "admin", email: "not-an-address" }), MESSAGES.invalidEmail],
      [fresh({ role: "admin", password: "short" }), MESSAGES.passwordTooShort],
      [fresh({}), MESSAGES.selectRole],
      [fresh({ role: "emperor" }), MESSAGES.selectRole],
      [fresh({ role: "school_user" }), MESSAGES.selectSchool],
      [fresh({ role: "district_user", school_ids: [] }), MESSAGES.selectSchools],
      [fresh({ role: "district_user" }), MESSAGES.selectSchools],
      [{ role: "admin", email: "x@example.test", password: "Welcome-Ferry-2026" }, MESSAGES.usernameTooShort],
    ];
    for (const [payload, message] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toBe(message);
    }
    const wrongType = await register(fresh({ role: "school_user", school_id: String(school.id) }));
    expect(wrongType.statusCode).toBe(400);
    const invalidJson = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: "{oops",
      headers: { ...admin.headers, "content-type": "application/json" },
    });
    expect(invalidJson.statusCode).toBe(400);
  });
});
