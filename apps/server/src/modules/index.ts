import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../context.js";

/** Every domain module's routes, mounted under /api in this order. */
export const apiModules: Array<FastifyPluginAsyncZod<{ ctx: ServerContext }>> = [];
