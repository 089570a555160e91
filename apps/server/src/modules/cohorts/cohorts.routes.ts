import {
  adminCohortsResponseSchema,
  cohortMutationResponseSchema,
  cohortsQuerySchema,
  cohortsResponseSchema,
  createCohortRequestSchema,
  idParamSchema,
  updateCohortRequestSchema,
} from "@tally/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { assertCanManageCohorts } from "./cohorts.policy.js";
import { createCohort, listActiveCohorts, listCohorts, listCohortsForAdmin, updateCohort } from "./cohorts.service.js";

export const cohortsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["cohorts"];
  const schema = {
    tags,
    querystring: cohortsQuerySchema,
    response: { 200: cohortsResponseSchema, ...scopedErrorResponses },
  };
  // onRequest: other roles are refused before their body is even parsed.
  const manage = [app.authenticate, async (request: FastifyRequest) => assertCanManageCohorts(request.user)];

  app.get("/cohorts", { onRequest: app.authenticate, schema }, async (request) => ({
    data: await listCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query)),
  }));
  app.get("/cohorts/active", { onRequest: app.authenticate, schema }, async (request) => ({
    data: await listActiveCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query), ctx.clock.now()),
  }));
  app.get(
    "/cohorts/admin",
    { onRequest: manage, schema: { tags, response: { 200: adminCohortsResponseSchema, ...errorResponses(401, 403) } } },
    async (request) => ({ data: await listCohortsForAdmin(ctx.database.db, request.user) }),
  );
  app.post(
    "/cohorts",
    {
      onRequest: manage,
      schema: {
        tags,
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
        params: idParamSchema,
        body: updateCohortRequestSchema,
        response: { 200: cohortMutationResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await updateCohort(ctx, request.user.id, request.params.id, request.body) }),
  );
};
