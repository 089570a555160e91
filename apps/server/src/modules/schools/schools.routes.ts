import { schoolsResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { listSchools } from "./schools.service.js";

export const schoolsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/schools",
    {
      onRequest: app.authenticate,
      schema: { tags: ["schools"], response: { 200: schoolsResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => ({ data: await listSchools(ctx.database.db, request.user) }),
  );
};
