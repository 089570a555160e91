import { errorBodySchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { USER_ADMIN_ROLES } from "../auth/auth.policy.js";
import { outboxQuerySchema, outboxResponseSchema } from "./mail.schemas.js";
import { readOutbox } from "./mail.service.js";

export const mailRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/mail/outbox",
    {
      onRequest: app.requireRoles(...USER_ADMIN_ROLES),
      schema: {
        tags: ["mail"],
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => readOutbox(ctx, request.query),
  );
};
