import {
  idParamSchema,
  cohortTrendsQuerySchema,
  cohortTrendsResponseSchema,
  studentAttendanceQuerySchema,
  studentAttendanceResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { getCohortTrends, getStudentAttendance } from "./attendance.service.js";

export const attendanceRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/attendance/student/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["attendance"],
        summary: "A student's attendance records and counts per week",
        operationId: "getStudentAttendance",
        params: idParamSchema,
        querystring: studentAttendanceQuerySchema,
        response: { 200: studentAttendanceResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const attendance = await getStudentAttendance(ctx.database.db, request.user, request.params.id, request.query);
      recordAccess(ctx, request.user, { action: "view", studentIds: [request.params.id] });
      return attendance;
    },
  );
  app.get(
    "/attendance/cohort-trends",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["attendance"],
        summary: "Present and late percentages per week, for the trend chart",
        operationId: "getCohortTrends",
        querystring: cohortTrendsQuerySchema,
        response: { 200: cohortTrendsResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await getCohortTrends(ctx.database.db, request.user, parseDashboardFilter(request.query), request.query.meetingType),
    }),
  );
};
