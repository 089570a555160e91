import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { errorBodySchema, ROLES, type Role } from "@tally/contract";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { mediaTypeOf } from "../lib/media-response.js";
import { type Guard, isGuard } from "./auth.js";

/** Where the reference page is served (security-headers gives this path, and only it, a page policy). */
export const API_DOCS_PREFIX = "/api/docs";

export const BEARER_SCHEME = "bearerAuth";
/** The access token in `?token=`: the live connection's routes (EventSource cannot send headers). */
export const QUERY_TOKEN_SCHEME = "queryToken";

declare module "fastify" {
  interface FastifySchema {
    /**
     * An upload's multipart form, for the document only: Fastify validates no multipart body
     * (the handler reads the parts itself), so the document shows this as the request body.
     */
    multipartForm?: z.ZodObject;
  }
}

/** What each status means here, for a reply whose schema says nothing of its own. */
const STATUS_TEXT: Record<string, string> = {
  200: "OK",
  201: "Created",
  400: "Refused input: `error` says what was wrong, `details` (when present) names each field",
  401: "No valid credentials: sign in (again)",
  403: "Signed in, but not allowed to do this",
  404: "Not found, or outside what the caller may see",
  409: "Conflicts with the data as it is now",
  413: "The body is too large",
  415: "The body's content type is not accepted",
  429: "Too many requests: try again after `Retry-After` seconds",
  502: "The mail server did not take the message",
  503: "Not available right now: try again later",
};

/** Methods whose body Fastify reads: too large is a 413, a type it has no parser for a 415. */
const takesBody = (method: RouteOptions["method"]) => [method].flat().some((m) => m !== "GET" && m !== "HEAD");

const rolesText = (roles: readonly Role[]) =>
  roles.length === ROLES.length ? "any signed-in user" : `${roles.join(", ")} (other roles get 403)`;

/** The security scheme of each place a guard reads the token from. */
const SCHEME_OF: Record<Guard["credentials"], string> = { bearer: BEARER_SCHEME, query: QUERY_TOKEN_SCHEME };

/**
 * The roles a route's guards let through and the schemes of their tokens (each guard says
 * both: plugins/auth.ts), or undefined for a route without guards. Every onRequest hook under
 * /api is a token guard; one that cannot say whom it lets through would leave the document
 * guessing, so it stops the document instead.
 */
function guardsOf(route: RouteOptions, url: string): { roles: readonly Role[]; schemes: string[] } | undefined {
  const hooks = [route.onRequest ?? []].flat();
  if (hooks.length === 0) return undefined;
  const guards = hooks.map((hook) => {
    if (!isGuard(hook)) {
      throw new Error(
        `${String(route.method)} ${url}: an onRequest hook that is not a token guard; guard the route with app.authenticate, requireRoles, requirePermission, requirePolicy or authenticateQueryToken`,
      );
    }
    return hook;
  });
  return {
    roles: guards.reduce<readonly Role[]>((roles, hook) => roles.filter((role) => hook.roles.includes(role)), ROLES),
    schemes: [...new Set(guards.map((hook) => SCHEME_OF[hook.credentials]))],
  };
}

/**
 * Completes each /api route's documentation from how it is registered, so a route added
 * later is documented the same way without anyone remembering to: its tag (the first path
 * segment, unless it names one), who may call it (from its guards), its security scheme, the
 * 401/403 of a guarded route, the 400 every route gives for a query parameter it does not take,
 * the 413/415 of one that reads a body, its multipart form and replies that are not JSON
 * under their own media types. Only the document changes: the route's own validation and
 * serialization stay as its module declared them.
 */
function documented(schema: FastifySchema, route: RouteOptions, url: string): FastifySchema {
  if (!url.startsWith("/api/")) return schema;
  const { multipartForm, ...rest } = schema;
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  const guards = guardsOf(route, url);
  const roles = guards?.roles;
  if (roles) {
    response[401] ??= errorBodySchema;
    if (roles.length < ROLES.length) response[403] ??= errorBodySchema;
  }
  // The query guard (plugins/query-guard.ts) refuses a parameter a route does not take.
  response[400] ??= errorBodySchema;
  if (takesBody(route.method)) {
    response[413] ??= errorBodySchema;
    response[415] ??= errorBodySchema;
  }
  // Each reply with a description and under its media type (a file's or a stream's, else JSON).
  for (const [status, reply] of Object.entries(response)) {
    if (!(reply instanceof z.ZodType)) continue;
    const description = reply.description ?? STATUS_TEXT[status] ?? `HTTP ${status}`;
    response[status] = { description, content: { [mediaTypeOf(reply) ?? "application/json"]: { schema: reply } } };
  }
  const caller = roles ? rolesText(roles) : "anyone, without signing in";
  return {
    ...rest,
    tags: schema.tags ?? [url.split("/")[2] ?? "api"],
    description: [`**Who may call:** ${caller}.`, schema.description].filter(Boolean).join("\n\n"),
    // One requirement naming every scheme the guards read: all of them must be met.
    security: guards ? [Object.fromEntries(guards.schemes.map((scheme) => [scheme, []]))] : [],
    ...(multipartForm ? { body: multipartForm, consumes: ["multipart/form-data"] } : {}),
    response,
  };
}

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; headers?: Record<string, unknown> };

/**
 * What the zod conversion leaves out: the default of a query parameter read through a
 * transform (simplified=true), and the Retry-After header every 429 carries (lib/errors.ts).
 */
function completed(json: FastifySchema, source: FastifySchema): FastifySchema {
  const query = json.querystring as JsonSchema | undefined;
  if (query?.properties && source.querystring instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(source.querystring.shape as Record<string, z.ZodType>)) {
      const property = query.properties[name];
      if (!property || "default" in property || !(field instanceof z.ZodDefault)) continue;
      const value: unknown = field.def.defaultValue;
      // As it is written in the query string (true for an enum of "true" and "false").
      property.default = property.type === "string" && typeof value !== "string" ? String(value) : value;
    }
  }
  const tooMany = (json.response as Record<string, JsonSchema> | undefined)?.[429];
  if (tooMany) {
    tooMany.headers = {
      "Retry-After": { type: "integer", minimum: 1, description: "Seconds until a retry may succeed." },
    };
  }
  return json;
}

/**
 * The OpenAPI document (GET /api/openapi.json, registered with the routes) and the reference
 * page at /api/docs, rendered by Swagger UI from files served with the app: nothing is fetched
 * from elsewhere, so the page works offline and under a CSP without third-party origins.
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: "Tally API",
          version: "0.1.0",
          description: [
            "Sign in with POST /api/auth/login and send the access token it returns as `Authorization: Bearer <token>`; " +
              "the live connection (GET /api/notifications, /api/notifications-poll) takes it as `?token=` instead.",
            "Every error reply is `{ error, code }`: `error` is the text to show, `code` is stable for programs.",
            "A query parameter an operation does not list is refused with 400 naming it and the accepted ones. " +
              "Request bodies are JSON (the three uploads: multipart/form-data) of at most 1 MB unless stated: " +
              "a larger one is refused with 413, another content type with 415. Every 429 carries `Retry-After`.",
          ].join("\n\n"),
        },
        servers: [{ url: "/" }],
        components: {
          securitySchemes: {
            [BEARER_SCHEME]: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
            [QUERY_TOKEN_SCHEME]: {
              type: "apiKey",
              in: "query",
              name: "token",
              description: "The access token, for clients that cannot send headers (EventSource).",
            },
          },
        },
      },
      transform: (input) => {
        if (!input.schema) return jsonSchemaTransform(input);
        const schema = documented(input.schema, input.route, input.url);
        const json = jsonSchemaTransform({ ...input, schema });
        return { ...json, schema: completed(json.schema, schema) };
      },
    });
    await app.register(fastifySwaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      uiConfig: { docExpansion: "list", deepLinking: true },
      // The page's own files only; security-headers sets the policy for the whole path.
      staticCSP: false,
    });
  },
  { name: "tally-api-docs" },
);
