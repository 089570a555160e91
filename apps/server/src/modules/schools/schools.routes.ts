import {
  adminSchoolsResponseSchema,
  createSchoolRequestSchema,
  idParamSchema,
  schoolMutationResponseSchema,
  schoolsResponseSchema,
  updateSchoolRequestSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { SCHOOL_MANAGERS } from "./schools.policy.js";
import { createSchool, listSchools, listSchoolsForAdmin, updateSchool } from "./schools.service.js";

export const schoolsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["schools"];
  // onRequest: other roles are refused before their body is even parsed.
  const manage = app.requirePolicy(SCHOOL_MANAGERS);

  app.get(
    "/schools",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The schools the caller may see",
        operationId: "listSchools",
        response: { 200: schoolsResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await listSchools(ctx.database.db, request.user) }),
  );
  app.get(
    "/schools/admin",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Every school with its student count (the admin list)",
        operationId: "listSchoolsForAdmin",
        response: { 200: adminSchoolsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: await listSchoolsForAdmin(ctx.database.db, request.user) }),
  );
  app.post(
    "/schools",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Add a school",
        operationId: "createSchool",
        body: createSchoolRequestSchema,
        response: { 201: schoolMutationResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createSchool(ctx, request.user.id, request.body) }),
  );
  app.patch(
    "/schools/:id",
    {
      onRequest: manage,
      schema: {
        tags,
        summary: "Rename a school or change its district",
        operationId: "updateSchool",
        params: idParamSchema,
        body: updateSchoolRequestSchema,
        response: { 200: schoolMutationResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({ data: await updateSchool(ctx, request.user.id, request.params.id, request.body) }),
  );
};
