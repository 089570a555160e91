import { weeklyDataParamsSchema, weeklyDataQuerySchema, weeklyDataResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { getWeeklyData } from "./weekly-data.service.js";

export const weeklyDataRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/weekly-data/:studentId",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["weekly-data"],
        summary: "A student's flags, reflections and advisor notes per week",
        operationId: "getWeeklyData",
        params: weeklyDataParamsSchema,
        querystring: weeklyDataQuerySchema,
        response: { 200: weeklyDataResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const data = await getWeeklyData(ctx.database.db, request.user, request.params.studentId, request.query);
      recordAccess(ctx, request.user, { action: "view", studentIds: [request.params.studentId] });
      return { data };
    },
  );
};
