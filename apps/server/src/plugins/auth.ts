import { type Permission, permissionsFor, ROLES, type Role } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../context.js";
import { forbidden, unauthenticated } from "../lib/errors.js";
import { type AuthUser, authenticateToken } from "../modules/auth/auth.service.js";

export type { AuthUser } from "../modules/auth/auth.service.js";

/**
 * A token guard. `roles` are the roles it lets through (every role for authenticate): the API
 * document states them from here (plugins/api-docs.ts), so it says what the check does.
 */
export interface Guard {
  (request: FastifyRequest, reply: FastifyReply): Promise<void>;
  readonly roles: readonly Role[];
}

/** Who may pass a requirePolicy guard, and what everyone else is told (403). */
export interface RolePolicy {
  roles: readonly Role[];
  refused: string;
}

/** Is this hook one of the guards below (so its roles are known)? */
export const isGuard = (hook: unknown): hook is Guard =>
  typeof hook === "function" && Array.isArray((hook as Partial<Guard>).roles);

const guard = (roles: readonly Role[], check: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): Guard =>
  Object.assign(check, { roles });

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
    /** Hook: authenticates, then requires one of the policy's roles (403 with its text otherwise). */
    requirePolicy(policy: RolePolicy): Guard;
  }
  interface FastifyRequest {
    /** Set by the authenticate preHandler; read it only on routes that use one of the guards. */
    user: AuthUser;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const plugin: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.decorateRequest("user", null as unknown as AuthUser);

  const authenticate = guard(ROLES, async (request) => {
    if (request.user) return;
    const match = BEARER.exec(request.headers.authorization ?? "");
    if (!match?.[1]) throw unauthenticated();
    request.user = await authenticateToken(ctx, match[1]);
  });
  const requirePolicy = ({ roles, refused }: { roles: readonly Role[]; refused?: string }) =>
    guard(roles, async (request, reply) => {
      await authenticate(request, reply);
      if (!roles.includes(request.user.role)) throw forbidden(refused);
    });

  app.decorate("authenticate", authenticate);
  app.decorate("requireRoles", (...roles: Role[]) => requirePolicy({ roles }));
  app.decorate("requirePermission", (permission: Permission) =>
    requirePolicy({ roles: ROLES.filter((role) => permissionsFor(role)[permission]) }),
  );
  app.decorate("requirePolicy", requirePolicy);
};

/** Bearer-token authentication and role/permission guards for every module under /api. */
export const authPlugin = fp(plugin, { name: "tally-auth" });
