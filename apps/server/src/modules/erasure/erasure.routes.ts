import {
  ADMIN_ROLES,
  eraseCohortStudentsRequestSchema,
  eraseStudentRequestSchema,
  erasureCountsSchema,
  idParamSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { eraseCohortStudents, eraseStudent } from "./erasure.service.js";

const tags = ["students"];

/** Issue 32: erasure of one student (admins) and of a cohort's students (super admins). */
export const studentErasureRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.delete(
    "/students/:id",
    {
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags,
        summary: "Erase a student: attendance, weekly data, memberships, notes and the student row",
        operationId: "eraseStudent",
        params: idParamSchema,
        body: eraseStudentRequestSchema,
        response: { 200: erasureCountsSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => eraseStudent(ctx, request.user, request.params.id, request.body),
  );
  app.delete(
    "/cohorts/:id/students",
    {
      onRequest: app.requireRoles("super_admin"),
      schema: {
        tags,
        summary: "Erase every student of a cohort (in batches)",
        operationId: "eraseCohortStudents",
        params: idParamSchema,
        body: eraseCohortStudentsRequestSchema,
        response: { 200: erasureCountsSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => eraseCohortStudents(ctx, request.user, request.params.id, request.body),
  );
};
