import type { FastifyRequest } from "fastify";

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
    redact: ["req.headers.authorization", "req.body.password", "req.body.refreshToken", "req.body.token"],
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: pathOf(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
