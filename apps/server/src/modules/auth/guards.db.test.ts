import { MESSAGES, ROLES } from "@tally/contract";
import { sql } from "kysely";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { testConfig } from "../../config.js";
import type { ServerContext } from "../../context.js";
import { systemClock } from "../../lib/clock.js";
import { createMailer } from "../../lib/mailer.js";
import { databaseOutbox } from "../mail/mail.service.js";
import { authPlugin, isGuard } from "../../plugins/auth.js";
import { errorsPlugin } from "../../plugins/errors.js";
import { startSignIn } from "../sessions/sessions.service.js";
import { signAccessToken } from "./access-tokens.js";

let app: FastifyInstance;
let ctx: ServerContext;
const database = useTestDatabase();

// A small app of its own, so the guards are tested apart from any module's routes.
beforeAll(async () => {
  const config = testConfig();
  ctx = {
    config,
    database,
    clock: systemClock,
    mailer: createMailer({ from: config.mailFrom, outbox: databaseOutbox(database.db), log: { info: () => {} } }),
  };
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { ctx });
  app.get("/me", { onRequest: app.authenticate }, async (request) => request.user);
  app.get("/admins", { preHandler: app.requireRoles("admin", "super_admin") }, async () => ({ ok: true }));
  app.get("/flags", { preHandler: app.requirePermission("uploadFlags") }, async () => ({ ok: true }));
  app.get("/policy", { preHandler: app.requirePolicy({ roles: ["district_user"], refused: "Districts only" }) }, async () => ({ ok: true }));
  app.get("/live", { onRequest: app.authenticateQueryToken }, async (request) => {
    const session = request.tokenSession;
    return session.live
      ? { live: true, userId: session.userId, sessionId: session.sessionId }
      : { live: false, userId: session.userId, refusal: session.refusal.code };
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

/** An access token for a sign-in of the user's (a live refresh token family). */
async function headersFor(user: { id: number; session_version: number }) {
  const { token } = await signInOf(user);
  return { authorization: `Bearer ${token}` };
}

/** A new sign-in of the user's and an access token naming it. */
async function signInOf(user: { id: number; session_version: number }) {
  const now = new Date();
  const { sessionId } = await startSignIn(ctx.database.db, user.id, now);
  const token = await signAccessToken(ctx.config.secretKey, now, {
    userId: user.id,
    sessionVersion: user.session_version,
    sessionId,
    providerTwoFactor: false,
  });
  return { token, sessionId };
}

describe("auth plugin", () => {
  it("loads request.user with the school scope from the database", async () => {
    const db = ctx.database.db;
    const [a, b] = [await buildSchool(db), await buildSchool(db)];
    const district = await buildUser(db, { role: "district_user", schoolIds: [a.id, b.id] });
    const school = await buildUser(db, { role: "school_user", schoolId: a.id });
    const admin = await buildUser(db, { role: "admin" });

    const me = async (u: typeof admin) => (await app.inject({ url: "/me", headers: await headersFor(u) })).json();
    expect(await me(admin)).toMatchObject({ id: admin.id, role: "admin", accessibleSchoolIds: "all", schoolId: null });
    expect(await me(school)).toMatchObject({ role: "school_user", schoolId: a.id, accessibleSchoolIds: [a.id] });
    const d = await me(district);
    expect([...d.accessibleSchoolIds].sort()).toEqual([a.id, b.id].sort());

    // A school removed from the district user counts on the very next request.
    await db.deleteFrom("user_schools").where("user_id", "=", district.id).where("school_id", "=", b.id).execute();
    expect((await me(district)).accessibleSchoolIds).toEqual([a.id]);
  });

  it("requireRoles and requirePermission answer 401 for strangers and 403 for the wrong role", async () => {
    const db = ctx.database.db;
    const admin = await buildUser(db, { role: "admin" });
    const superAdmin = await buildUser(db, { role: "super_admin" });
    const district = await buildUser(db, { role: "district_user" });

    const call = async (url: string, user?: typeof admin) =>
      app.inject({ url, headers: user ? await headersFor(user) : {} });

    expect((await call("/admins", admin)).statusCode).toBe(200);
    expect((await call("/admins", superAdmin)).statusCode).toBe(200);
    const denied = await call("/admins", district);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: MESSAGES.forbidden, code: "FORBIDDEN" });
    expect((await call("/admins")).statusCode).toBe(401);

    expect((await call("/flags", superAdmin)).statusCode).toBe(200);
    expect((await call("/flags", admin)).statusCode).toBe(403);
    expect((await call("/flags")).statusCode).toBe(401);
  });

  it("lets through exactly the roles each guard names (the API document states them from there)", async () => {
    const db = ctx.database.db;
    const guards = {
      "/me": app.authenticate,
      "/admins": app.requireRoles("admin", "super_admin"),
      "/flags": app.requirePermission("uploadFlags"),
      "/policy": app.requirePolicy({ roles: ["district_user"], refused: "Districts only" }),
    };
    expect(app.authenticate.roles).toEqual(ROLES);
    expect(guards["/flags"].roles).toEqual(["super_admin"]);
    for (const role of ROLES) {
      const headers = await headersFor(await buildUser(db, { role }));
      for (const [url, guard] of Object.entries(guards)) {
        const res = await app.inject({ url, headers });
        expect(res.statusCode, `${role} ${url}`).toBe(guard.roles.includes(role) ? 200 : 403);
        if (url === "/policy" && res.statusCode === 403) expect(res.json()).toEqual({ error: "Districts only", code: "FORBIDDEN" });
      }
    }
  });

  it("refuses a token for a user that no longer exists", async () => {
    const ghost = await buildUser(ctx.database.db, { role: "admin" });
    const headers = await headersFor(ghost);
    await ctx.database.db.deleteFrom("users").where("id", "=", ghost.id).execute();
    const res = await app.inject({ url: "/me", headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("UNAUTHENTICATED");
  });
});

describe("authenticateQueryToken (the live connection's ?token=)", () => {
  const live = (token?: string) => app.inject({ url: token === undefined ? "/live" : `/live?token=${encodeURIComponent(token)}` });

  it("is a guard the API document recognises: every role, credentials in the query", () => {
    expect(isGuard(app.authenticateQueryToken)).toBe(true);
    expect(app.authenticateQueryToken.roles).toEqual(ROLES);
    expect(app.authenticateQueryToken.credentials).toBe("query");
    expect(app.authenticate.credentials).toBe("bearer");
    expect(app.requireRoles("admin").credentials).toBe("bearer");
  });

  it("answers 401 UNAUTHENTICATED, before the route, for a missing, empty, forged or bearer-only token", async () => {
    const user = await buildUser(ctx.database.db, { role: "admin" });
    const { token } = await signInOf(user);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const res of [await live(), await live(""), await live(forged), await live("not-a-token")]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: MESSAGES.unauthenticated, code: "UNAUTHENTICATED" });
    }
    const bearerOnly = await app.inject({ url: "/live", headers: { authorization: `Bearer ${token}` } });
    expect(bearerOnly.statusCode).toBe(401);
  });

  it("puts the live session on the request: the user and the sign-in the token names", async () => {
    const user = await buildUser(ctx.database.db, { role: "school_user", schoolId: (await buildSchool(ctx.database.db)).id });
    const { token, sessionId } = await signInOf(user);
    const res = await live(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ live: true, userId: user.id, sessionId });
  });

  it("lets a genuine token whose sign-in has ended through, as not live with the refusal, so the route can say why", async () => {
    const db = ctx.database.db;
    const user = await buildUser(db, { role: "district_user" });
    const { token } = await signInOf(user);
    await db.updateTable("users").set({ session_version: sql<number>`session_version + 1` }).where("id", "=", user.id).execute();
    const res = await live(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ live: false, userId: user.id, refusal: "SESSION_VERSION_MISMATCH" });
  });
});
