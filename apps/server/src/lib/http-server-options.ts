import type { Server, ServerOptions } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { throttledWarning } from "./throttled-warning.js";

/** The timeouts of the HTTP server, in ms (config.ts reads them: HTTP_*_TIMEOUT_MS). */
export interface HttpTimeouts {
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
}

/**
 * The HTTP server's timeouts, all from the config, for buildApp to hand to Fastify. Node checks
 * headersTimeout and requestTimeout on a timer of its own (30 s by default, so a 10 s limit
 * could take 40): here it runs at a quarter of headersTimeout, at most once a second. Both end
 * once a request has fully arrived, so a reply that goes on (an event stream) is never cut.
 */
export function httpServerOptions(config: HttpTimeouts): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    // Fastify sets these two on the server itself after making it.
    requestTimeout: config.httpRequestTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    http: {
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(config.httpHeadersTimeoutMs / 4))),
    },
  };
}

/**
 * Caps the open connections below the process's file limit: Node closes the ones beyond at
 * once, which leaves the process its file handles for the database and its own work.
 */
export function capConnections(server: Server, maxConnections: number, log: FastifyBaseLogger): void {
  server.maxConnections = maxConnections;
  const warn = throttledWarning(log, "connection limit reached: new connections are dropped (HTTP_MAX_CONNECTIONS)");
  server.on("drop", (dropped?: { remoteAddress?: string }) => warn({ maxConnections, lastFrom: dropped?.remoteAddress }));
}
