import {
  errorBodySchema,
  studentDetailSchema,
  studentsQuerySchema,
  studentsResponseSchema,
  studentsSummaryQuerySchema,
  studentsSummaryResponseSchema,
  updateStudentRequestSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { getStudentDetail, listStudents, summarizeStudents, updateStudent } from "./students.service.js";

const paramsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const tags = ["students"];

export const studentsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  app.get(
    "/students",
    {
      onRequest: app.authenticate,
      schema: { tags, querystring: studentsQuerySchema, response: { 200: studentsResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => listStudents(db, request.user, request.query),
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
    async (request) => summarizeStudents(db, request.user, request.query),
  );
  app.get(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: { tags, params: paramsSchema, response: { 200: studentDetailSchema, ...scopedErrorResponses } },
    },
    async (request) => getStudentDetail(db, request.user, request.params.id),
  );
  app.put(
    "/students/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        params: paramsSchema,
        body: updateStudentRequestSchema,
        response: { 200: studentDetailSchema, ...scopedErrorResponses, 409: errorBodySchema },
      },
    },
    async (request) => updateStudent(ctx, request.user, request.params.id, request.body),
  );
};
