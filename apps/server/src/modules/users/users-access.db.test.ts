import { beforeAll, describe, expect, it } from "vitest";
import { buildSchool, buildUser, type BuiltUser } from "../../../test/factories.js";
import { caller, loginAs, useTestApp } from "../../../test/test-app.js";
import { sessionVersionOf, userRow } from "../../../test/user-rows.js";
import { POLICY_MESSAGES } from "./users.policy.js";

const t = useTestApp();
const call = caller(t);

/** Every /users route with a body that would be valid, so only the caller's rights decide. */
function everyRoute(targetId: number, schoolId: number) {
  return [
    ["GET", "/api/users", undefined],
    ["PUT", `/api/users/${targetId}`, { email: `changed-${targetId}@example.test` }],
    ["DELETE", `/api/users/${targetId}`, undefined],
    ["POST", `/api/users/${targetId}/deactivate`, undefined],
    ["POST", `/api/users/${targetId}/reactivate`, undefined],
    ["POST", `/api/users/${targetId}/reset-password`, { password: "Another-Pass-1" }],
    ["PUT", `/api/users/${targetId}/school`, { school_id: schoolId }],
    ["GET", `/api/users/${targetId}/schools`, undefined],
    ["PUT", `/api/users/${targetId}/schools`, { schoolIds: [schoolId] }],
    ["GET", `/api/users/${targetId}/login-logs`, undefined],
  ] as const;
}

describe("who may call the user administration API", () => {
  it("refuses callers without a token (401) and school and district users (403), changing nothing", async () => {
    const school = await buildSchool(t.db);
    const target = await buildUser(t.db, { role: "school_user", schoolId: school.id });
    const before = await userRow(t.db, target.id);
    const schoolUser = await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId: school.id }));
    const districtUser = await loginAs(t.app, await buildUser(t.db, { role: "district_user", schoolIds: [school.id] }));

    for (const [method, url, payload] of everyRoute(target.id, school.id)) {
      const anonymous = await call(method, url, {}, payload);
      expect(anonymous.statusCode, `${method} ${url} without a token`).toBe(401);
      for (const who of [schoolUser, districtUser]) {
        const res = await call(method, url, who.headers, payload);
        expect(res.statusCode, `${method} ${url} as ${who.user.role}`).toBe(403);
        expect(res.json().code).toBe("FORBIDDEN");
      }
    }
    // Own account too: a school user cannot reach their own row through this API.
    const self = await call("GET", `/api/users/${schoolUser.user.id}/schools`, schoolUser.headers);
    expect(self.statusCode).toBe(403);
    expect(await userRow(t.db, target.id)).toEqual(before);
  });

  it("lets admins and super admins list every account", async () => {
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const superAdmin = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
    for (const who of [admin, superAdmin]) {
      const res = await call("GET", "/api/users", who.headers);
      expect(res.statusCode).toBe(200);
      const ids = res.json().data.map((u: { id: number }) => u.id);
      expect(ids).toEqual(expect.arrayContaining([admin.user.id, superAdmin.user.id]));
    }
  });
});

describe("an admin and super admin accounts", () => {
  let admin: Awaited<ReturnType<typeof loginAs>>;
  let victim: BuiltUser;
  let schoolId: number;
  beforeAll(async () => {
    schoolId = (await buildSchool(t.db)).id;
    admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    victim = await buildUser(t.db, { role: "super_admin" });
  });

  it("refuses every action on a super admin's account with 403 and changes nothing", async () => {
    const before = await userRow(t.db, victim.id);
    const routes = everyRoute(victim.id, schoolId).filter(([, url]) => url !== "/api/users");
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, admin.headers, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe(POLICY_MESSAGES.superAdminTarget);
    }
    expect(await userRow(t.db, victim.id)).toEqual(before);
    // The super admin still signs in with the old password.
    await loginAs(t.app, victim);
  });

  it("refuses to make anyone a super admin, including themself", async () => {
    const other = await buildUser(t.db, { role: "admin" });
    const promote = await call("PUT", `/api/users/${other.id}`, admin.headers, { role: "super_admin" });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe(POLICY_MESSAGES.grantSuperAdmin);
    expect((await userRow(t.db, other.id)).role).toBe("admin");

    const self = await call("PUT", `/api/users/${admin.user.id}`, admin.headers, { role: "super_admin" });
    expect(self.statusCode).toBe(403);
    expect((await userRow(t.db, admin.user.id)).role).toBe("admin");
  });

  it("may manage another admin", async () => {
    const other = await buildUser(t.db, { role: "admin" });
    const res = await call("POST", `/api/users/${other.id}/deactivate`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect((await userRow(t.db, other.id)).is_active).toBe(false);
  });
});

describe("acting on one's own account", () => {
  it("an admin may edit their own username and e-mail, but not their role or active state", async () => {
    const me = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, me);
    const version = await sessionVersionOf(t.db, me.id);

    const demote = await call("PUT", `/api/users/${me.id}`, session.headers, { role: "school_user", school_id: (await buildSchool(t.db)).id });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().error).toBe(POLICY_MESSAGES.ownRole);
    const off = await call("PUT", `/api/users/${me.id}`, session.headers, { is_active: false });
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe(POLICY_MESSAGES.ownActiveState);
    for (const [method, url] of [
      ["DELETE", `/api/users/${me.id}`],
      ["POST", `/api/users/${me.id}/deactivate`],
    ] as const) {
      const res = await call(method, url, session.headers);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await userRow(t.db, me.id)).toMatchObject({ role: "admin", is_active: true });

    // The edit form sends the unchanged role along: that is not a role change.
    const edit = await call("PUT", `/api/users/${me.id}`, session.headers, {
      username: `${me.username}-renamed`,
      email: `renamed-${me.id}@example.test`,
      role: "admin",
      is_active: true,
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().user).toMatchObject({ username: `${me.username}-renamed`, email: `renamed-${me.id}@example.test` });
    // Still signed in: only the address changed.
    expect(await sessionVersionOf(t.db, me.id)).toBe(version);
    expect((await call("GET", "/api/auth/profile", session.headers)).statusCode).toBe(200);
  });

  it("a super admin cannot deactivate or demote themself either", async () => {
    const me = await buildUser(t.db, { role: "super_admin" });
    const session = await loginAs(t.app, me);
    expect((await call("DELETE", `/api/users/${me.id}`, session.headers)).statusCode).toBe(403);
    expect((await call("PUT", `/api/users/${me.id}`, session.headers, { role: "admin" })).statusCode).toBe(403);
    expect(await userRow(t.db, me.id)).toMatchObject({ role: "super_admin", is_active: true });
  });
});

describe("a super admin", () => {
  it("may act on admins and other super admins, including granting super admin", async () => {
    const superAdmin = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
    const admin = await buildUser(t.db, { role: "admin" });
    const edit = await call("PUT", `/api/users/${admin.id}`, superAdmin.headers, { email: `sa-edit-${admin.id}@example.test` });
    expect(edit.statusCode).toBe(200);
    expect((await call("GET", `/api/users/${admin.id}/login-logs`, superAdmin.headers)).statusCode).toBe(200);
    const promote = await call("PUT", `/api/users/${admin.id}`, superAdmin.headers, { role: "super_admin" });
    expect(promote.statusCode).toBe(200);
    expect(promote.json().user.role).toBe("super_admin");

    const off = await call("DELETE", `/api/users/${admin.id}`, superAdmin.headers);
    expect(off.statusCode).toBe(200);
    expect((await userRow(t.db, admin.id)).is_active).toBe(false);
    const on = await call("PUT", `/api/users/${admin.id}`, superAdmin.headers, { is_active: true });
    expect(on.statusCode).toBe(200);
    expect((await userRow(t.db, admin.id)).is_active).toBe(true);
  });
});
