import {
  featureSettingsQuerySchema,
  featureSettingsResponseSchema,
  saveFeatureSettingsRequestSchema,
  saveFeatureSettingsResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { featureSchoolFor } from "./settings.policy.js";
import { getFeatureSettings, saveFeatureSettings } from "./feature-settings.service.js";

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/settings/features",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["settings"],
        summary: "The feature toggles, and those in force at a school",
        operationId: "getFeatureSettings",
        querystring: featureSettingsQuerySchema,
        response: { 200: featureSettingsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      getFeatureSettings(ctx.database.db, request.user, featureSchoolFor(request.user, request.query.school_id)),
  );

  app.post(
    "/settings/features",
    {
      // Admins and super admins only; others are refused before their body is even parsed.
      onRequest: app.requirePermission("accessSettings"),
      schema: {
        tags: ["settings"],
        summary: "Save the feature toggles",
        operationId: "saveFeatureSettings",
        body: saveFeatureSettingsRequestSchema,
        response: { 200: saveFeatureSettingsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => saveFeatureSettings(ctx, request.user.id, request.body),
  );
};
