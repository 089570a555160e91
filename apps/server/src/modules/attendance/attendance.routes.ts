import {
  idParamSchema,
  cohortTrendsQuerySchema,
  cohortTrendsResponseSchema,
  studentAttendanceQuerySchema,
  studentAttendanceResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { getCohortTrends, getStudentAttendance } from "./attendance.service.js";

export const attendanceRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/attendance/student/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["attendance"],
        params: idParamSchema,
        querystring: studentAttendanceQuerySchema,
        response: { 200: studentAttendanceResponseSchema, ...scopedErrorResponses },
      },
    },
    async (request) => getStudentAttendance(ctx.database.db, request.user, request.params.id, request.query),
  );
  app.get(
    "/attendance/cohort-trends",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["attendance"],
        querystring: cohortTrendsQuerySchema,
        response: { 200: cohortTrendsResponseSchema, ...scopedErrorResponses },
      },
    },
    async (request) => ({
      data: await getCohortTrends(ctx.database.db, request.user, parseDashboardFilter(request.query), request.query.meetingType),
    }),
  );
};
