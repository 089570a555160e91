import { ADMIN_ROLES, demoSettingsResponseSchema, saveDemoSettingsRequestSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { getDemoSettings, saveDemoSettings } from "./demo-settings.service.js";

export const demoSettingsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["settings"];
  // Any signed-in user reads it: the web needs the demo school's id and access toggles to
  // show (or hide) the "Demo school" link; nothing in it is secret.
  app.get(
    "/settings/demo",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The demo school and who may open it",
        operationId: "getDemoSettings",
        response: { 200: demoSettingsResponseSchema, ...errorResponses(401) },
      },
    },
    async () => getDemoSettings(ctx.database.db),
  );
  app.post(
    "/settings/demo",
    {
      // onRequest: other roles are refused before their body is even parsed.
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags,
        summary: "Save who may open the demo school",
        operationId: "saveDemoSettings",
        body: saveDemoSettingsRequestSchema,
        response: { 200: demoSettingsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => saveDemoSettings(ctx.database.db, request.user.id, request.body, ctx.clock.now()),
  );
};
