import { outboxQuerySchema, outboxResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { settleBackgroundWork } from "./background-mail.js";
import { OUTBOX_READER_ROLES } from "./mail.policy.js";
import { readOutbox } from "./mail.service.js";

export const mailRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  // Mail still going out after its reply is sent before the server stops.
  app.addHook("onClose", () => settleBackgroundWork(ctx));
  app.get(
    "/mail/outbox",
    {
      onRequest: app.requireRoles(...OUTBOX_READER_ROLES),
      schema: {
        tags: ["mail"],
        summary: "Mail kept in the database outbox, newest first (one-time links withheld)",
        operationId: "listOutbox",
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => readOutbox(ctx, request.query),
  );
};
