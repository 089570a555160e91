import {
  idParamSchema,
  studentDetailSchema,
  studentsQuerySchema,
  studentsResponseSchema,
  studentsSummaryQuerySchema,
  studentsSummaryResponseSchema,
  updateStudentRequestSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { parseDashboardFilter } from "../scope/dashboard-filter.js";
import { getStudentDetail, readStudentsPage, summarizeStudents, updateStudent } from "./students.service.js";

const tags = ["students"];

export const studentsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  app.get(
    "/students",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "A page of the students the caller may see, by the dashboard's filters",
        operationId: "listStudents",
        querystring: studentsQuerySchema,
        response: { 200: studentsResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => readStudentsPage(ctx, request.user, parseDashboardFilter(request.query), request.query),
  );
  app.get(
    "/students/summary",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The dashboard's counts for the same filters as the student list",
        operationId: "summarizeStudents",
        querystring: studentsSummaryQuerySchema,
        response: { 200: studentsSummaryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      summarizeStudents(db, request.user, parseDashboardFilter(request.query), request.query.previousWeek ? ctx.clock.now() : undefined),
  );
  app.get(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "One student, with cohorts, teams and attendance shares",
        operationId: "getStudent",
        params: idParamSchema,
        response: { 200: studentDetailSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const detail = await getStudentDetail(db, request.user, request.params.id);
      recordAccess(ctx, request.user, { action: "view", studentIds: [detail.id] });
      return detail;
    },
  );
  app.put(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Edit a student (as the school's feature settings allow)",
        operationId: "updateStudent",
        params: idParamSchema,
        body: updateStudentRequestSchema,
        response: { 200: studentDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateStudent(ctx, request.user, request.params.id, request.body),
  );
};
