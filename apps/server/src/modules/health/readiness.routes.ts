import { notReadySchema, readySchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { checkReadiness } from "./readiness.service.js";

/** GET /health-check/ready: for load balancers and orchestrators deciding where to send traffic. */
export const readinessRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/health-check/ready",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: whether to send this instance traffic",
        operationId: "getReadiness",
        response: { 200: readySchema, 503: notReadySchema },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(ctx.database);
      if (readiness.ready) return readiness.body;
      request.log.warn({ err: readiness.cause, reason: readiness.body.reason }, "not ready");
      return reply.status(503).send(readiness.body);
    },
  );
};
