import {
  ADMIN_ROLES,
  cohortVisibilityQuerySchema,
  cohortVisibilityResponseSchema,
  saveCohortVisibilityRequestSchema,
  saveCohortVisibilityResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { getCohortVisibility, saveCohortVisibility } from "./cohort-visibility.service.js";

/** School Data Visibility: admins read and save which cohorts school and district users see. */
export const cohortVisibilityRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  // onRequest: other roles are refused before their body is even parsed.
  const onRequest = app.requireRoles(...ADMIN_ROLES);
  const tags = ["settings"];

  app.get(
    "/settings/cohort-visibility",
    {
      onRequest,
      schema: {
        tags,
        summary: "Which cohorts school and district users see, at every school or one",
        operationId: "getCohortVisibility",
        querystring: cohortVisibilityQuerySchema,
        response: { 200: cohortVisibilityResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await getCohortVisibility(db, request.query.school_id) }),
  );

  app.post(
    "/settings/cohort-visibility",
    {
      onRequest,
      schema: {
        tags,
        summary: "Save which cohorts school and district users see",
        operationId: "saveCohortVisibility",
        body: saveCohortVisibilityRequestSchema,
        response: { 200: saveCohortVisibilityResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => saveCohortVisibility(db, ctx.clock, request.user.id, request.body.settings),
  );
};
