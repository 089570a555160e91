import { ADMIN_ROLES, erasureCountsSchema, retentionPreviewQuerySchema, retentionPreviewSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { previewRetention, runRetentionNow, startRetentionSchedule } from "./retention.service.js";

/** Issue 32: retention's preview and its run now (admins); the nightly run starts with the app and stops on close. */
export const retentionRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const schedule = startRetentionSchedule(ctx, app.log);
  app.addHook("onClose", () => schedule.stop());
  const tags = ["settings"];
  const onRequest = app.requireRoles(...ADMIN_ROLES);
  app.get(
    "/settings/privacy/retention-preview",
    {
      onRequest,
      schema: {
        tags,
        summary: "The students retention would remove now (count and names)",
        operationId: "previewRetention",
        querystring: retentionPreviewQuerySchema,
        response: { 200: retentionPreviewSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => previewRetention(ctx, request.query.years),
  );
  app.post(
    "/settings/privacy/retention-run",
    {
      onRequest,
      schema: {
        tags,
        summary: "Run retention now, as the nightly run does; the counts removed",
        operationId: "runRetention",
        response: { 200: erasureCountsSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => runRetentionNow(ctx, request.user.id),
  );
};
