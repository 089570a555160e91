import { MESSAGES, usersListResponseSchema } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { caller, loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { sessionVersionOf, userRow, userSchoolIds } from "../../../test/user-rows.js";

const t = useTestApp();
const call = caller(t);
const admin = useSignedIn(t, { role: "admin" });

const put = (id: number, body: unknown) => call("PUT", `/api/users/${id}`, admin.headers, body);

describe("GET /api/users", () => {
  it("lists every account with its schools, active or not", async () => {
    const alder = await buildSchool(t.db, { name: "Alder List" });
    const birch = await buildSchool(t.db, { name: "Birch List" });
    const schoolUser = await buildUser(t.db, { role: "school_user", schoolId: alder.id });
    const district = await buildUser(t.db, { role: "district_user", schoolIds: [birch.id, alder.id] });
    const inactive = await buildUser(t.db, { role: "admin", isActive: false, emailVerified: false });

    const res = await call("GET", "/api/users", admin.headers);
    expect(res.statusCode).toBe(200);
    const { data } = usersListResponseSchema.parse(res.json());
    const byId = new Map(data.map((u) => [u.id, u]));
    expect(byId.get(schoolUser.id)).toMatchObject({
      username: schoolUser.username,
      email: schoolUser.email,
      role: "school_user",
      school_id: alder.id,
      school_name: "Alder List",
      school_ids: [alder.id],
      school_names: ["Alder List"],
      school_count: 1,
      is_active: true,
      last_login: null,
      email_verified: true,
    });
    expect(byId.get(district.id)).toMatchObject({
      school_id: null,
      school_name: null,
      school_ids: [alder.id, birch.id],
      school_names: ["Alder List", "Birch List"],
      school_count: 2,
    });
    expect(byId.get(inactive.id)).toMatchObject({ is_active: false, email_verified: false, school_count: 0, school_ids: [] });
    // The admin signed in during setup: the last sign-in is shown.
    expect(byId.get(admin.user.id)?.last_login).not.toBeNull();
    expect(new Date(byId.get(schoolUser.id)?.created_at ?? "").getTime()).not.toBeNaN();
  });
});

describe("PUT /api/users/:id validation", () => {
  it("answers 400 with the spec's texts and changes nothing", async () => {
    const school = await buildSchool(t.db);
    const user = await buildUser(t.db, { role: "school_user", schoolId: school.id });
    const before = await userRow(t.db, user.id);
    const cases: Array<[unknown, string]> = [
      [{ username: "ab" }, MESSAGES.usernameTooShort],
      [{ username: "  ab  " }, MESSAGES.usernameTooShort],
      [{ username: 42 }, MESSAGES.usernameTooShort],
      [{ email: "not-an-address" }, MESSAGES.invalidEmail],
      [{ email: "a@b" }, MESSAGES.invalidEmail],
      [{ role: "" }, MESSAGES.selectRole],
      [{ role: "district_admin" }, MESSAGES.selectRole],
      [{ role: "school_user", school_id: null }, MESSAGES.selectSchool],
      [{ role: "district_user", school_ids: [] }, MESSAGES.selectSchools],
      // No school given and none to keep: the user is not a district user yet.
      [{ role: "district_user" }, MESSAGES.selectSchools],
      [{ school_id: null }, MESSAGES.selectSchool],
    ];
    for (const [body, error] of cases) {
      const res = await put(user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ error, code: "VALIDATION_ERROR" });
    }
    expect(await userRow(t.db, user.id)).toEqual(before);
  });

  it("refuses school ids that do not exist, and malformed input, with 400 (never 500)", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const before = await userRow(t.db, user.id);
    const bad: unknown[] = [
      { role: "school_user", school_id: 999_999 },
      { role: "district_user", school_ids: [user.school_id, 999_999] },
      { school_id: 99_999_999_999 },
      { school_id: "seven" },
      { school_ids: "1,2" },
      { is_active: "yes" },
      {},
      [],
    ];
    for (const body of bad) {
      const res = await put(user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const payload of ["{not json", '"a string"', "null", "42"]) {
      const raw = await t.app.inject({
        method: "PUT",
        url: `/api/users/${user.id}`,
        headers: { ...admin.headers, "content-type": "application/json" },
        payload,
      });
      expect(raw.statusCode, payload).toBe(400);
    }
    for (const id of ["abc", "0", "-1", "1.5", "99999999999"]) {
      expect((await put(id as unknown as number, { email: "x@example.test" })).statusCode, id).toBe(400);
      expect((await call("GET", `/api/users/${id}/schools`, admin.headers)).statusCode, id).toBe(400);
    }
    expect(await userRow(t.db, user.id)).toEqual(before);
  });

  it("answers 404 for an unknown user on every route", async () => {
    const school = await buildSchool(t.db);
    const missing = 2_000_000_000;
    const routes = [
      ["PUT", `/api/users/${missing}`, { email: "nobody@example.test" }],
      ["DELETE", `/api/users/${missing}`, undefined],
      ["POST", `/api/users/${missing}/deactivate`, undefined],
      ["POST", `/api/users/${missing}/reactivate`, undefined],
      ["POST", `/api/users/${missing}/reset-password`, { password: "Long-enough-1" }],
      ["POST", `/api/users/${missing}/reset-password`, undefined],
      ["PUT", `/api/users/${missing}/school`, { school_id: school.id }],
      ["GET", `/api/users/${missing}/schools`, undefined],
      ["PUT", `/api/users/${missing}/schools`, { schoolIds: [school.id] }],
      ["GET", `/api/users/${missing}/login-logs`, undefined],
    ] as const;
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, admin.headers, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: "User not found", code: "NOT_FOUND" });
    }
  });

  it("answers 409 when another account has the username or e-mail, ignoring case", async () => {
    const taken = await buildUser(t.db, { role: "admin", username: "Taken-Name", email: "Taken@Example.test" });
    const user = await buildUser(t.db, { role: "admin" });
    const name = await put(user.id, { username: "taken-NAME" });
    expect(name.statusCode).toBe(409);
    expect(name.json()).toEqual({ error: "Username already exists", code: "CONFLICT" });
    const mail = await put(user.id, { email: "TAKEN@example.TEST" });
    expect(mail.statusCode).toBe(409);
    expect(mail.json()).toEqual({ error: "Email already exists", code: "CONFLICT" });
    expect(await userRow(t.db, user.id)).toMatchObject({ username: user.username, email: user.email });

    // The account's own name in another case is not a conflict.
    const own = await put(taken.id, { username: "TAKEN-name", email: "taken@example.test" });
    expect(own.statusCode).toBe(200);
    expect(own.json().user).toMatchObject({ username: "TAKEN-name", email: "taken@example.test" });
  });
});

describe("PUT /api/users/:id changes", () => {
  it("editing only the username or e-mail keeps the user signed in", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const session = await loginAs(t.app, user);
    const version = await sessionVersionOf(t.db, user.id);
    const res = await put(user.id, {
      username: `  ${user.username}-x  `,
      email: `new-${user.id}@example.test`,
      role: "school_user",
      school_id: user.school_id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.userUpdated,
      user: { username: `${user.username}-x`, email: `new-${user.id}@example.test`, school_id: user.school_id },
    });
    expect(await sessionVersionOf(t.db, user.id)).toBe(version);
    expect((await call("GET", "/api/auth/profile", session.headers)).statusCode).toBe(200);
  });

  it("school_user to district_user: clears school_id, stores the schools, signs the user out", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const user = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    const session = await loginAs(t.app, user);
    const version = await sessionVersionOf(t.db, user.id);

    const res = await put(user.id, { role: "district_user", school_id: a.id, school_ids: [b.id, a.id, b.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ role: "district_user", school_id: null, school_ids: [a.id, b.id].sort((x, y) => x - y) });
    expect(await userRow(t.db, user.id)).toMatchObject({ role: "district_user", school_id: null });
    expect(await userSchoolIds(t.db, user.id)).toEqual([a.id, b.id].sort((x, y) => x - y));
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
    const profile = await call("GET", "/api/auth/profile", session.headers);
    expect(profile.statusCode).toBe(401);
    expect(profile.json().code).toBe("SESSION_VERSION_MISMATCH");
    // Refresh tokens were revoked too.
    const refreshed = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: session.refreshToken } });
    expect(refreshed.statusCode).toBe(401);
  });

  it("district_user to school_user and to admin: user_schools are cleared", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const one = await buildUser(t.db, { role: "district_user", schoolIds: [a.id, b.id] });
    const toSchool = await put(one.id, { role: "school_user", school_id: b.id });
    expect(toSchool.statusCode).toBe(200);
    expect(await userRow(t.db, one.id)).toMatchObject({ role: "school_user", school_id: b.id });
    expect(await userSchoolIds(t.db, one.id)).toEqual([]);

    const two = await buildUser(t.db, { role: "district_user", schoolIds: [a.id] });
    const toAdmin = await put(two.id, { role: "admin", school_ids: [a.id] });
    expect(toAdmin.statusCode).toBe(200);
    expect(await userRow(t.db, two.id)).toMatchObject({ role: "admin", school_id: null });
    expect(await userSchoolIds(t.db, two.id)).toEqual([]);

    const three = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    expect((await put(three.id, { role: "admin" })).statusCode).toBe(200);
    expect(await userRow(t.db, three.id)).toMatchObject({ role: "admin", school_id: null });
  });

  it("a district user keeps their schools when the edit form does not send them", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const user = await buildUser(t.db, { role: "district_user", schoolIds: [a.id, b.id] });
    const version = await sessionVersionOf(t.db, user.id);
    const res = await put(user.id, { username: user.username, email: user.email, role: "district_user", school_id: null });
    expect(res.statusCode).toBe(200);
    expect(await userSchoolIds(t.db, user.id)).toEqual([a.id, b.id].sort((x, y) => x - y));
    expect(await sessionVersionOf(t.db, user.id)).toBe(version);
  });

  it("moving a school user to another school signs them out", async () => {
    const [a, b] = [await buildSchool(t.db), await buildSchool(t.db)];
    const user = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    const version = await sessionVersionOf(t.db, user.id);
    expect((await put(user.id, { school_id: b.id })).statusCode).toBe(200);
    expect(await userRow(t.db, user.id)).toMatchObject({ school_id: b.id });
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
  });
});

describe("PUT /api/users/:id/school", () => {
  it("moves a school user, bumping the session only when the school changes", async () => {
    const [a, b] = [await buildSchool(t.db, { name: "School Move A" }), await buildSchool(t.db, { name: "School Move B" })];
    const user = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    const version = await sessionVersionOf(t.db, user.id);
    const res = await call("PUT", `/api/users/${user.id}/school`, admin.headers, { school_id: b.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ school_id: b.id, school_name: "School Move B" });
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);

    const same = await call("PUT", `/api/users/${user.id}/school`, admin.headers, { school_id: b.id });
    expect(same.statusCode).toBe(200);
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
  });

  it("refuses missing or unknown schools and accounts that are not school users", async () => {
    const school = await buildSchool(t.db);
    const user = await buildUser(t.db, { role: "school_user", schoolId: school.id });
    const url = `/api/users/${user.id}/school`;
    const missing = await call("PUT", url, admin.headers, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(MESSAGES.selectSchool);
    expect((await call("PUT", url, admin.headers, { school_id: 999_999 })).statusCode).toBe(400);
    expect((await call("PUT", url, admin.headers, { school_id: "x" })).statusCode).toBe(400);
    const district = await buildUser(t.db, { role: "district_user", schoolIds: [school.id] });
    expect((await call("PUT", `/api/users/${district.id}/school`, admin.headers, { school_id: school.id })).statusCode).toBe(400);
    expect(await userRow(t.db, district.id)).toMatchObject({ school_id: null });
    expect(await userRow(t.db, user.id)).toMatchObject({ school_id: school.id });
  });
});

describe("GET and PUT /api/users/:id/schools", () => {
  it("round-trips a district user's school access and signs them out when it changes", async () => {
    const a = await buildSchool(t.db, { name: "Access Ash" });
    const b = await buildSchool(t.db, { name: "Access Beech" });
    const c = await buildSchool(t.db, { name: "Access Cherry" });
    const user = await buildUser(t.db, { role: "district_user", schoolIds: [a.id] });
    const session = await loginAs(t.app, user);
    const url = `/api/users/${user.id}/schools`;
    const version = await sessionVersionOf(t.db, user.id);

    expect((await call("GET", url, admin.headers)).json()).toEqual({ data: [{ id: a.id, name: "Access Ash" }] });

    const saved = await call("PUT", url, admin.headers, { schoolIds: [c.id, b.id, c.id] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      message: MESSAGES.schoolAccessUpdated,
      data: [
        { id: b.id, name: "Access Beech" },
        { id: c.id, name: "Access Cherry" },
      ],
    });
    expect((await call("GET", url, admin.headers)).json()).toEqual({
      data: [
        { id: b.id, name: "Access Beech" },
        { id: c.id, name: "Access Cherry" },
      ],
    });
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
    expect((await call("GET", "/api/auth/profile", session.headers)).json().code).toBe("SESSION_VERSION_MISMATCH");

    // Saving the same set again changes nothing, so nobody is signed out.
    const again = await loginAs(t.app, user);
    expect((await call("PUT", url, admin.headers, { schoolIds: [b.id, c.id] })).statusCode).toBe(200);
    expect(await sessionVersionOf(t.db, user.id)).toBe(version + 1);
    expect((await call("GET", "/api/auth/profile", again.headers)).statusCode).toBe(200);
    // The new access is what the user sees after signing in again.
    expect(again.user.accessibleSchoolIds).toEqual([b.id, c.id].sort((x, y) => x - y));
  });

  it("refuses an empty list, unknown schools and non-district accounts without changing anything", async () => {
    const a = await buildSchool(t.db);
    const user = await buildUser(t.db, { role: "district_user", schoolIds: [a.id] });
    const url = `/api/users/${user.id}/schools`;
    const empty = await call("PUT", url, admin.headers, { schoolIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(MESSAGES.selectSchools);
    const missing = await call("PUT", url, admin.headers, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(MESSAGES.selectSchools);
    expect((await call("PUT", url, admin.headers, { schoolIds: [a.id, 999_999] })).statusCode).toBe(400);
    expect((await call("PUT", url, admin.headers, { schoolIds: ["a"] })).statusCode).toBe(400);
    expect((await call("PUT", url, admin.headers, { schoolIds: [3_000_000_000] })).statusCode).toBe(400);
    expect(await userSchoolIds(t.db, user.id)).toEqual([a.id]);

    const schoolUser = await buildUser(t.db, { role: "school_user", schoolId: a.id });
    expect((await call("PUT", `/api/users/${schoolUser.id}/schools`, admin.headers, { schoolIds: [a.id] })).statusCode).toBe(400);
    expect(await userSchoolIds(t.db, schoolUser.id)).toEqual([]);
    // Reading works for every role: a school user's one school, nothing for an admin.
    expect((await call("GET", `/api/users/${schoolUser.id}/schools`, admin.headers)).json().data).toEqual([
      { id: a.id, name: a.name },
    ]);
    expect((await call("GET", `/api/users/${admin.user.id}/schools`, admin.headers)).json().data).toEqual([]);
  });
});
