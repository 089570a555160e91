import { cohortsQuerySchema, cohortsResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { listActiveCohorts, listCohorts } from "./cohorts.service.js";

export const cohortsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const schema = {
    tags: ["cohorts"],
    querystring: cohortsQuerySchema,
    response: { 200: cohortsResponseSchema, ...scopedErrorResponses },
  };
  app.get("/cohorts", { onRequest: app.authenticate, schema }, async (request) => ({
    data: await listCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query)),
  }));
  app.get("/cohorts/active", { onRequest: app.authenticate, schema }, async (request) => ({
    data: await listActiveCohorts(ctx.database.db, request.user, parseDashboardFilter(request.query), ctx.clock.now()),
  }));
};
