import { isAdminRole, MESSAGES, type Permission, permissionsFor, ROLES, type Role } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../context.js";
import { AppError, forbidden, unauthenticated } from "../lib/errors.js";
import { type AuthUser, authenticateToken, type TokenSession, tokenSession } from "../modules/auth/auth.service.js";

export type { AuthUser, TokenSession } from "../modules/auth/auth.service.js";

/**
 * A token guard. `roles` are the roles it lets through (every role for authenticate) and
 * `credentials` where it reads the token: the API document states both from here
 * (plugins/api-docs.ts), so it says what the check does.
 */
export interface Guard {
  (request: FastifyRequest, reply: FastifyReply): Promise<void>;
  readonly roles: readonly Role[];
  /** bearer: the Authorization header; query: `?token=` (the live connection: EventSource cannot send headers). */
  readonly credentials: "bearer" | "query";
}

/** Who may pass a requirePolicy guard, and what everyone else is told (403). */
export interface RolePolicy {
  roles: readonly Role[];
  refused: string;
}

/** Is this hook one of the guards below (so its roles are known)? */
export const isGuard = (hook: unknown): hook is Guard =>
  typeof hook === "function" && Array.isArray((hook as Partial<Guard>).roles);

const guard = (
  roles: readonly Role[],
  check: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
  credentials: Guard["credentials"] = "bearer",
): Guard => Object.assign(check, { roles, credentials });

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
    /**
     * Hook (onRequest) of the live connection: requires a genuine, unexpired access token in
     * `?token=` (401 otherwise, as authenticate) and puts request.tokenSession. A token whose
     * sign-in has ended passes as not live, with the 401 it would get: the route still owes
     * that client the FORCE_LOGOUT that ended it.
     */
    authenticateQueryToken: Guard;
  }
  interface FastifyContextConfig {
    /**
     * The route stays open to an admin who has not enrolled a second factor while
     * REQUIRE_MFA_FOR_ADMINS is on: the profile and the enrolment itself.
     */
    enrolment?: boolean;
  }
  interface FastifyRequest {
    /** Set by the authenticate preHandler; read it only on routes that use one of the guards. */
    user: AuthUser;
    /** Set by authenticateQueryToken; read it only on routes that use that guard. */
    tokenSession: TokenSession;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const plugin: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.decorateRequest("user", null as unknown as AuthUser);
  app.decorateRequest("tokenSession", null, []);

  // REQUIRE_MFA_FOR_ADMINS: an admin without a second factor reaches nothing but the routes of
  // enrolling (and signing in and out); everything an admin sees is an admin function. A sign-in
  // whose two factors the single sign-on provider vouched for is two-factor already.
  const requireEnrolment = (request: FastifyRequest) => {
    const { user } = request;
    if (!ctx.config.requireMfaForAdmins || !isAdminRole(user.role) || user.mfaEnrolled || user.providerTwoFactor) return;
    if (request.routeOptions.config.enrolment) return;
    throw new AppError(403, "MFA_ENROLMENT_REQUIRED", MESSAGES.mfaEnrolmentRequired);
  };
  const authenticate = guard(ROLES, async (request) => {
    if (request.user) return;
    const match = BEARER.exec(request.headers.authorization ?? "");
    if (!match?.[1]) throw unauthenticated();
    request.user = await authenticateToken(ctx, match[1]);
    requireEnrolment(request);
  });
  const requirePolicy = ({ roles, refused }: { roles: readonly Role[]; refused?: string }) =>
    guard(roles, async (request, reply) => {
      await authenticate(request, reply);
      if (!roles.includes(request.user.role)) throw forbidden(refused);
    });
  // Runs before the query is validated, as the bearer guards run before the body is read.
  const authenticateQueryToken = guard(
    ROLES,
    async (request) => {
      const { token } = request.query as { token?: unknown };
      if (typeof token !== "string" || !token) throw unauthenticated();
      request.tokenSession = await tokenSession(ctx, token);
    },
    "query",
  );

  app.decorate("authenticate", authenticate);
  app.decorate("requireRoles", (...roles: Role[]) => requirePolicy({ roles }));
  app.decorate("requirePermission", (permission: Permission) =>
    requirePolicy({ roles: ROLES.filter((role) => permissionsFor(role)[permission]) }),
  );
  app.decorate("requirePolicy", requirePolicy);
  app.decorate("authenticateQueryToken", authenticateQueryToken);
};

/** Bearer-token authentication, role/permission guards and the live connection's query-token guard for every module under /api. */
export const authPlugin = fp(plugin, { name: "tally-auth" });
