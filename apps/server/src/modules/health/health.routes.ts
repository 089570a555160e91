import { healthSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/health-check",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness: the server answers and reaches its database",
        operationId: "getHealth",
        response: { 200: healthSchema },
      },
    },
    async () => {
      await ctx.database.db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
      return { status: "ok" as const, database: ctx.database.engine, time: ctx.clock.now().toISOString() };
    },
  );
};
