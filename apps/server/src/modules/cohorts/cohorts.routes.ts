import {
  adminCohortsResponseSchema,
  cohortMutationResponseSchema,
  cohortsQuerySchema,
  cohortsResponseSchema,
  createCohortRequestSchema,
  idParamSchema,
  updateCohortRequestSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { COHORT_MANAGERS } from "./cohorts.policy.js";
import { createCohort, listActiveCohorts, listCohorts, listCohortsForAdmin, updateCohort } from "./cohorts.service.js";

export const cohortsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["cohorts"];
  const list = { tags, querystring: cohortsQuerySchema, response: { 200: cohortsResponseSchema, ...errorResponses(400, 401) } };
  // onRequest: other roles are refused before their body is even parsed.
  const manage = app.requirePolicy(COHORT_MANAGERS);

  app.get(
    "/cohorts",
    { onRequest: app.authenticate, schema: { ...list, summary: "The cohorts the caller may see", operationId: "listCohorts" } },
    async (request) => ({ data: await listCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query)) }),
  );
  app.get(
    "/cohorts/active",
    {
      onRequest: app.authenticate,
      schema: { ...list, summary: "The cohorts a week's reports can still be for", operationId: "listActiveCohorts" },
    },
    async (request) => ({
      data: await listActiveCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query), ctx.clock.now()),
    }),
  );
  app.get(
    "/cohorts/admin",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Every cohort with its students and weeks (the admin list)",
        operationId: "listCohortsForAdmin",
        response: { 200: adminCohortsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: await listCohortsForAdmin(ctx.database.db, request.user) }),
  );
  app.post(
    "/cohorts",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Add a cohort",
        operationId: "createCohort",
        body: createCohortRequestSchema,
        response: { 201: cohortMutationResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createCohort(ctx, request.user.id, request.body) }),
  );
  app.patch(
    "/cohorts/:id",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Edit a cohort",
        operationId: "updateCohort",
        params: idParamSchema,
        body: updateCohortRequestSchema,
        response: { 200: cohortMutationResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await updateCohort(ctx, request.user.id, request.params.id, request.body) }),
  );
};
