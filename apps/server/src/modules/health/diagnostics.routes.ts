import { debugCorsSchema, publicConfigSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { corsAllowed } from "./cors.policy.js";

/** The API Debug page's cross-origin check and what the app may show before sign-in (spec §7). */
export const diagnosticsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["health"];

  app.get(
    "/debug/cors",
    { schema: { tags, summary: "The API Debug page's cross-origin check", operationId: "getDebugCors", response: { 200: debugCorsSchema } } },
    async (request) => {
      const header = request.headers.origin;
      const origin = Array.isArray(header) ? header[0] : header;
      return {
        // Echoed only as far as the schema allows; nothing of the configuration is disclosed.
        origin: origin?.slice(0, 2048) ?? null,
        allowed: corsAllowed(origin, request.host, ctx.config.corsOrigins),
        method: request.method,
        time: ctx.clock.now().toISOString(),
      };
    },
  );

  app.get(
    "/public-config",
    { schema: { tags, summary: "What the app may show before sign-in", operationId: "getPublicConfig", response: { 200: publicConfigSchema } } },
    async () => ({ supportEmail: ctx.config.supportEmail }),
  );
};
