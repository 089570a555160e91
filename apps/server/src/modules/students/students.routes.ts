import {
  idParamSchema,
  errorBodySchema,
  studentDetailSchema,
  studentsQuerySchema,
  studentsResponseSchema,
  studentsSummaryQuerySchema,
  studentsSummaryResponseSchema,
  updateStudentRequestSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { getStudentDetail, listStudents, summarizeStudents, updateStudent } from "./students.service.js";

const tags = ["students"];

export const studentsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  app.get(
    "/students",
    {
      onRequest: app.authenticate,
      schema: { tags, querystring: studentsQuerySchema, response: { 200: studentsResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => listStudents(db, request.user, parseDashboardFilter(request.query), request.query),
  );
  app.get(
    "/students/summary",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        querystring: studentsSummaryQuerySchema,
        response: { 200: studentsSummaryResponseSchema, ...scopedErrorResponses },
      },
    },
    async (request) => summarizeStudents(db, request.user, parseDashboardFilter(request.query)),
  );
  app.get(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: { tags, params: idParamSchema, response: { 200: studentDetailSchema, ...scopedErrorResponses } },
    },
    async (request) => getStudentDetail(db, request.user, request.params.id),
  );
  app.put(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        params: idParamSchema,
        body: updateStudentRequestSchema,
        response: { 200: studentDetailSchema, ...scopedErrorResponses, 409: errorBodySchema },
      },
    },
    async (request) => updateStudent(ctx, request.user, request.params.id, request.body),
  );
};
