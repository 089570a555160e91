import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import { MESSAGES } from "@tally/contract";
import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from "fastify";
import { serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServerContext } from "./context.js";
import { clientAddressPlugin } from "./modules/audit/client-address.js";
import { apiDocsPlugin } from "./plugins/api-docs.js";
import { compressionPlugin } from "./plugins/compression.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin } from "./plugins/errors.js";
import { inputGuardPlugin } from "./plugins/input-guard.js";
import { multipartPlugin } from "./plugins/multipart.js";
import { queryGuardPlugin } from "./plugins/query-guard.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { apiModules } from "./modules/index.js";
import { forwardedAddressWarnings } from "./lib/forwarded-address.js";
import { requestIdHeader, requestIdOptions } from "./lib/request-log.js";
import { capConnections, httpServerOptions } from "./lib/http-server-options.js";
import { guardConnections } from "./lib/connection-guard.js";
import { strictBodyValidatorCompiler } from "./lib/strict-body.js";

export interface BuildAppOptions {
  ctx: ServerContext;
  logger?: FastifyServerOptions["logger"];
  /** Folder of the built web app; absent = API only (tests). */
  webDist?: string;
  /** Told of every route as it is registered (tests walk them). */
  onRoute?: (route: { method: string | string[]; url: string; schema?: FastifySchema | undefined }) => void;
  /** Heartbeat period of the notification streams (default NOTIFICATION_LIMITS.heartbeatMs). */
  heartbeatMs?: number;
}

/** Builds the Fastify app: plugins, then modules. It never listens. */
export async function buildApp({ ctx, logger = false, webDist, onRoute, heartbeatMs }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Only the proxies named by TRUST_PROXY may tell who the client is; anyone else's
    // X-Forwarded-For is ignored, so it cannot be used to dodge the sign-in limits. Read the
    // address with clientAddressOf, which also ignores a forwarded value that is no address.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Timeouts for slow and half-sent requests (HTTP_HEADERS_TIMEOUT_MS, ...), set in one place.
    ...httpServerOptions(ctx.config),
    ...requestIdOptions,
  }).withTypeProvider<ZodTypeProvider>();
  capConnections(app.server, ctx.config.httpMaxConnections, app.log);
  // Idle connections may not hold the slots that capConnections leaves (lib/connection-guard.ts).
  guardConnections(
    app.server,
    {
      maxConnections: ctx.config.httpMaxConnections,
      perAddress: ctx.config.httpConnectionsPerAddress,
      keepAliveTimeoutMs: ctx.config.httpKeepAliveTimeoutMs,
      headersTimeoutMs: ctx.config.httpHeadersTimeoutMs,
      trustProxy: ctx.config.trustProxy,
    },
    app.log,
  );
  if (onRoute) app.addHook("onRoute", (route) => onRoute({ method: route.method, url: route.url, schema: route.schema }));
  // A JSON body's unknown fields are refused (400), as the query guard refuses unknown names.
  app.setValidatorCompiler(strictBodyValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestIdHeader);
  await app.register(forwardedAddressWarnings);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, { connectOrigins: ctx.config.debugBackendOrigins });
  await app.register(inputGuardPlugin);
  await app.register(queryGuardPlugin);
  await app.register(multipartPlugin);
  await app.register(compressionPlugin);
  await app.register(apiDocsPlugin);
  // Audited changes record the client address of the request that made them.
  await app.register(clientAddressPlugin);

  // Set on the caller's own context, not on a copy: whoever built the app may change its parts
  // afterwards (the tests swap the mailer and the clock), and the modules must see that.
  ctx.log ??= app.log;
  await app.register(
    async (api) => {
      // The token guards (app.authenticate, app.requireRoles, ...) serve every module below.
      await api.register(authPlugin, { ctx });
      for (const mod of apiModules) await api.register(mod, { ctx, heartbeatMs });
      api.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: "/api" },
  );

  const webRoot = webDist ?? defaultWebDist();
  // Source maps would publish the web app's source: builds make none, and any left over stay unserved.
  app.addHook("onRequest", async (request, reply) => {
    if (isSourceMapPath(request.url)) return reply.status(404).send({ error: MESSAGES.notFound, code: "NOT_FOUND" });
  });
  if (webRoot && existsSync(join(webRoot, "index.html"))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // Cache-Control is set per file below instead of the plugin's "public, max-age=0".
      cacheControl: false,
      setHeaders: (reply, path) => reply.header("Cache-Control", cacheControlFor(webRoot, path)),
    });

    // Client-side routes: the web app decides what "not found" looks like. A route rather than
    // the not-found handler, so the page gets the compression every route gets. HEAD answers as
    // GET does, without the body (uptime monitors ask with HEAD).
    // The sign-in page has its own copy of index.html that already shows the sign-in screen, so
    // the first paint need not wait for the app's code (issue 29). Builds without it still work.
    const hasLoginPage = existsSync(join(webRoot, "login.html"));
    app.get("/login", { schema: { hide: true } }, (_request, reply) =>
      reply.type("text/html").sendFile(hasLoginPage ? "login.html" : "index.html"),
    );
    app.get("/*", { schema: { hide: true } }, (request, reply) => {
      if (request.url.startsWith("/api")) return reply.status(404).send({ error: MESSAGES.notFound, code: "NOT_FOUND" });
      return reply.type("text/html").sendFile("index.html");
    });
  }

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: MESSAGES.notFound, code: "NOT_FOUND" }));

  return app;
}

/** Fastify's typings take no hop count, so a count becomes the function proxy-addr makes of one. */
function trustProxyOption(setting: number | string[] | undefined): string[] | false | ((address: string, hop: number) => boolean) {
  if (setting === undefined) return false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return setting;
}

function isSourceMapPath(url: string): boolean {
  const path = url.split("?")[0] ?? "";
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the static files will not match it either.
  }
  return /\.map$/i.test(decoded);
}

/**
 * Vite names every file under assets/ by its content's hash, so a browser may keep it for a
 * year without asking; the HTML (and the other unhashed files) must be asked for again each
 * time, or a deploy would leave browsers on the old asset names.
 */
export function cacheControlFor(webRoot: string, filePath: string): string {
  const assets = resolve(webRoot, "assets") + sep;
  return filePath.startsWith(assets) ? "public, max-age=31536000, immutable" : "no-cache";
}

function defaultWebDist(): string | undefined {
  const dir = fileURLToPath(new URL("../../web/dist", import.meta.url));
  return existsSync(dir) ? dir : undefined;
}
