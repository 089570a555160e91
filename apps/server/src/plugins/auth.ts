import { type Permission, permissionsFor, type Role } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../context.js";
import { forbidden, unauthenticated } from "../lib/errors.js";
import { type AuthUser, authenticateToken } from "../modules/auth/auth.service.js";

export type { AuthUser } from "../modules/auth/auth.service.js";

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Hook (onRequest or preHandler): requires a valid bearer token and loads request.user
     * from the database. onRequest rejects strangers before their body is even parsed.
     */
    authenticate: Guard;
    /** Hook: authenticates, then requires one of the roles (403 otherwise). */
    requireRoles(...roles: Role[]): Guard;
    /** Hook: authenticates, then requires the named permission flag (403 otherwise). */
    requirePermission(permission: Permission): Guard;
  }
  interface FastifyRequest {
    /** Set by the authenticate preHandler; read it only on routes that use one of the guards. */
    user: AuthUser;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const plugin: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.decorateRequest("user", null as unknown as AuthUser);

  const authenticate: Guard = async (request) => {
    if (request.user) return;
    const match = BEARER.exec(request.headers.authorization ?? "");
    if (!match?.[1]) throw unauthenticated();
    request.user = await authenticateToken(ctx, match[1]);
  };

  app.decorate("authenticate", authenticate);
  app.decorate("requireRoles", (...roles: Role[]): Guard => async (request, reply) => {
    await authenticate(request, reply);
    if (!roles.includes(request.user.role)) throw forbidden();
  });
  app.decorate("requirePermission", (permission: Permission): Guard => async (request, reply) => {
    await authenticate(request, reply);
    if (!permissionsFor(request.user.role)[permission]) throw forbidden();
  });
};

/** Bearer-token authentication and role/permission guards for every module under /api. */
export const authPlugin = fp(plugin, { name: "tally-auth" });
