import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { clientAddressOf } from "../../lib/forwarded-address.js";

// The client address belongs to the request, not to the change: carried here, every audited
// change made while serving a request records it without each service's signature (and each
// route) passing it along. Outside a request (CLI, tests calling services) there is none.
const requestAddress = new AsyncLocalStorage<string>();

/** The address of the client whose request is being served (TRUST_PROXY applied), if any. */
export function currentClientAddress(): string | null {
  return requestAddress.getStore() ?? null;
}

/**
 * Serves the rest of each request with its client address in reach of recordChange.
 * preValidation runs after the body is read: the stream events of body parsing do not keep
 * an async context, so one entered any earlier could be lost before the handler runs.
 */
export const clientAddressPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook("preValidation", (request, _reply, done) => {
      requestAddress.run(clientAddressOf(request), done);
    });
  },
  { name: "tally-audit-client-address" },
);
