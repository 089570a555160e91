import fastifyHelmet from "@fastify/helmet";
import { contentSecurityPolicy } from "helmet";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

// Mantine injects style tags at run time, hence 'unsafe-inline' for styles only. The API Debug
// page may also call the development and production backends it is configured to test.
const pageCspWith = (connectOrigins: readonly string[]) =>
  contentSecurityPolicy({
  useDefaults: false,
  directives: {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...connectOrigins],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  },
});

// API replies are data, never documents: nothing in them may load or frame anything.
const apiCsp = contentSecurityPolicy({
  useDefaults: false,
  directives: { "default-src": ["'none'"], "frame-ancestors": ["'none'"] },
});

// The API reference (/api/docs) is the one page under /api: Swagger UI's script and styles are
// served from here, it fetches the OpenAPI document from here, its icons are data: images and
// it sets style attributes at run time. Nothing may come from elsewhere or frame it.
const apiDocsCsp = contentSecurityPolicy({
  useDefaults: false,
  directives: {
    "default-src": ["'none'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  },
});

/** Browser features the app never uses, denied to it and to anything it could embed. */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "bluetooth=()",
  "camera=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "payment=()",
  "serial=()",
  "usb=()",
].join(", ");

const HSTS = "max-age=31536000; includeSubDomains";

const isApiDocs = (request: FastifyRequest) => /^\/api\/docs(?:[/?]|$)/.test(request.url);
const isApi = (request: FastifyRequest) => request.url === "/api" || request.url.startsWith("/api/") || request.url.startsWith("/api?");

export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: { connectOrigins?: readonly string[] }) => {
  const pageCsp = pageCspWith(opts.connectOrigins ?? []);
  await app.register(fastifyHelmet, {
    // Chosen per request below: one policy for pages, a stricter one for the API.
    contentSecurityPolicy: false,
    // Only over HTTPS (below): on plain HTTP the header is meaningless, and on localhost it
    // would pin every other local app to HTTPS.
    strictTransportSecurity: false,
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
  });

  app.addHook("onRequest", (request, reply, done) => {
    (isApiDocs(request) ? apiDocsCsp : isApi(request) ? apiCsp : pageCsp)(request.raw, reply.raw, () => {});
    reply.header("Permissions-Policy", PERMISSIONS_POLICY);
    // request.protocol believes X-Forwarded-Proto only from a proxy TRUST_PROXY names.
    if (request.protocol === "https") reply.header("Strict-Transport-Security", HSTS);
    done();
  });

  // Last word, after any route: API replies carry sessions and student data.
  app.addHook("onSend", async (request, reply, payload) => {
    if (isApi(request)) reply.header("Cache-Control", "no-store");
    return payload;
  });
});
