import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

// Mantine injects style tags at run time, hence 'unsafe-inline' for styles only.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("X-Frame-Options", "DENY");
    reply.header("Referrer-Policy", "no-referrer");
    reply.header("Cross-Origin-Opener-Policy", "same-origin");
    if (request.url.startsWith("/api")) reply.header("Cache-Control", "no-store");
    else reply.header("Content-Security-Policy", CSP);
    return payload;
  });
});
