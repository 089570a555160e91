import { teamsQuerySchema, teamsResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { listTeams } from "./teams.service.js";

export const teamsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/teams",
    {
      onRequest: app.authenticate,
      schema: { tags: ["teams"], querystring: teamsQuerySchema, response: { 200: teamsResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => ({
      data: await listTeams(ctx.database.db, request.user, parseDashboardFilter(request.query)),
    }),
  );
};
