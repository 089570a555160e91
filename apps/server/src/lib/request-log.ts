import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { clientAddressOf } from "./forwarded-address.js";

/** The path of a request URL: the query string is left out, since older links carry one-time tokens in it. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Pino options for the server's request log. Requests are logged by method and path only (a
 * `?token=` from an older e-mail link, or from the GET forms of the token checks, must not
 * reach the log), and the credentials a body may carry are redacted should a body be logged.
 */
export function serverLoggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    // @fastify/multipart logs the request's headers at trace level ("Providing options to
    // busboy"): the bearer token with them, found by the whole-run log check.
    redact: [
      "req.headers.authorization",
      "req.headers.cookie",
      "busboyOptions.headers.authorization",
      "busboyOptions.headers.cookie",
      "req.body.password",
      "req.body.refreshToken",
      "req.body.token",
      // The second factor's sign-in challenge and codes.
      "req.body.challenge",
      "req.body.code",
    ],
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: pathOf(request.url),
          host: request.host,
          remoteAddress: clientAddressOf(request),
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

/** An incoming X-Request-Id is kept only when it is this: short, and safe to echo and to log. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's request-id options (its child loggers put `reqId` on every request log line). A
 * proxy's or client's X-Request-Id is reused so their logs and ours can be joined, unless it
 * could forge log content or smuggle something long into it; then a new id is made.
 */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId(req: { headers: Record<string, string | string[] | undefined> }): string {
    const incoming = req.headers["x-request-id"];
    return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  },
};

/** Tells the client the id its request was logged under (X-Request-Id), errors included. */
export const requestIdHeader = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
});
