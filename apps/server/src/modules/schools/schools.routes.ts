import {
  adminSchoolsResponseSchema,
  createSchoolRequestSchema,
  errorBodySchema,
  idParamSchema,
  schoolMutationResponseSchema,
  schoolsResponseSchema,
  updateSchoolRequestSchema,
} from "@tally/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { assertCanManageSchools } from "./schools.policy.js";
import { createSchool, listSchools, listSchoolsForAdmin, updateSchool } from "./schools.service.js";

export const schoolsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["schools"];
  // onRequest: other roles are refused before their body is even parsed.
  const manage = [app.authenticate, async (request: FastifyRequest) => assertCanManageSchools(request.user)];

  app.get(
    "/schools",
    {
      onRequest: app.authenticate,
      schema: { tags, response: { 200: schoolsResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => ({ data: await listSchools(ctx.database.db, request.user) }),
  );
  app.get(
    "/schools/admin",
    { onRequest: manage, schema: { tags, response: { 200: adminSchoolsResponseSchema, ...errorResponses(401, 403) } } },
    async (request) => ({ data: await listSchoolsForAdmin(ctx.database.db, request.user) }),
  );
  app.post(
    "/schools",
    {
      onRequest: manage,
      schema: {
        tags,
        body: createSchoolRequestSchema,
        response: { 201: schoolMutationResponseSchema, ...errorResponses(400, 401, 403), 409: errorBodySchema },
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
        params: idParamSchema,
        body: updateSchoolRequestSchema,
        response: { 200: schoolMutationResponseSchema, ...errorResponses(400, 401, 403, 404), 409: errorBodySchema },
      },
    },
    async (request) => ({ data: await updateSchool(ctx, request.user.id, request.params.id, request.body) }),
  );
};
