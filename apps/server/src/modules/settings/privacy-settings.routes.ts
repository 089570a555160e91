import { ADMIN_ROLES, privacySettingsSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { readPrivacySettings, savePrivacySettings } from "./privacy-settings.service.js";

// Issue 32: retention and the bulk-export alarm, the admins' to read and set.
export const privacySettingsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["settings"];
  const onRequest = app.requireRoles(...ADMIN_ROLES);
  app.get(
    "/settings/privacy",
    {
      onRequest,
      schema: {
        tags,
        summary: "Retention and the bulk-export alarm",
        operationId: "getPrivacySettings",
        response: { 200: privacySettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => readPrivacySettings(ctx.database.db),
  );
  app.put(
    "/settings/privacy",
    {
      onRequest,
      schema: {
        tags,
        summary: "Save retention and the bulk-export alarm",
        operationId: "savePrivacySettings",
        body: privacySettingsSchema,
        response: { 200: privacySettingsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => savePrivacySettings(ctx.database.db, request.user.id, request.body, ctx.clock.now()),
  );
};
