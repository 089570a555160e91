import { teamsQuerySchema, teamsResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { listTeams } from "./teams.service.js";

export const teamsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/teams",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["teams"],
        summary: "The teams the caller may see, by school and cohort",
        operationId: "listTeams",
        querystring: teamsQuerySchema,
        response: { 200: teamsResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await listTeams(ctx.database.db, request.user, parseDashboardFilter(request.query)),
    }),
  );
};
