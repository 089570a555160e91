import { teamsQuerySchema, teamsResponseSchema } from "@tally/contract";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { sendEncoded } from "../../lib/encoded-reply.js";
import { errorResponses } from "../../lib/error-responses.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { teamListReply } from "./team-list-reply.js";

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
    // Already JSON bytes, written through the response schema and compressed (team-list-reply.ts): sent as they are.
    async (request, reply) =>
      sendEncoded(
        request,
        reply as FastifyReply,
        await teamListReply(ctx.database.db, request.user, parseDashboardFilter(request.query)),
        "application/json; charset=utf-8",
      ),
  );
};
