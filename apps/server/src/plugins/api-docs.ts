import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { errorBodySchema } from "@tally/contract";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** Where the reference page is served (security-headers gives this path, and only it, a page policy). */
export const API_DOCS_PREFIX = "/api/docs";

export const BEARER_SCHEME = "bearerAuth";

/** A guarded route: every token guard (authenticate, requireRoles, requirePermission) runs onRequest. */
const isGuarded = (route: RouteOptions) => [route.onRequest ?? []].flat().length > 0;

/**
 * Completes each /api route's documentation from how it is registered, so a route added
 * later is documented the same way without anyone remembering to: its tag (the first path
 * segment, unless it names one), the bearer scheme and the 401/403 replies of a guarded route,
 * and the 400 of one that validates input. Only the document changes: the route's own
 * validation and serialization stay as its module declared them.
 */
function documented(schema: FastifySchema, route: RouteOptions, url: string): FastifySchema {
  if (!url.startsWith("/api/")) return schema;
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  const guarded = isGuarded(route);
  if (guarded) {
    response[401] ??= errorBodySchema;
    response[403] ??= errorBodySchema;
  }
  if (schema.body || schema.querystring || schema.params) response[400] ??= errorBodySchema;
  return {
    ...schema,
    tags: schema.tags ?? [url.split("/")[2] ?? "api"],
    ...(guarded ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
    response,
  };
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
          description:
            "Sign in with POST /api/auth/login and send the access token it returns as `Authorization: Bearer <token>`. " +
            "Every error reply is `{ error, code }`: `error` is the text to show, `code` is stable for programs.",
        },
        servers: [{ url: "/" }],
        components: {
          securitySchemes: { [BEARER_SCHEME]: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
        },
      },
      transform: (input) =>
        jsonSchemaTransform({ ...input, schema: input.schema ? documented(input.schema, input.route, input.url) : input.schema }),
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
