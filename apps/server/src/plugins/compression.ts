import fastifyCompress from "@fastify/compress";
import fp from "fastify-plugin";
import type { FastifyInstance, RouteOptions } from "fastify";

/**
 * Brotli or gzip, by the client's Accept-Encoding, for the API's replies and the web app's
 * files (registered before both, so every route registered after it gets the hook). Brotli
 * at the plugin's quality 4: most of the saving for a fraction of quality 11's CPU.
 *
 * Streams that must reach the client as they are written stay uncompressed, since a
 * compressor holds bytes back until its block fills: the live connection (text/event-stream)
 * and the import's progress (application/x-ndjson) are neither compressible types to the
 * plugin, and PDFs are already compressed.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  // The compress plugin also hangs an onRequest hook on every route, only to put
  // reply.compress on the reply, which nothing here calls. The API reference reads every
  // onRequest hook under /api as a token guard (plugins/api-docs.ts), so that hook is taken
  // off again: the onRoute hooks run in order, before it is added and after.
  const hooksBefore = new WeakMap<RouteOptions, number>();
  app.addHook("onRoute", (route) => {
    hooksBefore.set(route, onRequestHooks(route).length);
  });
  await app.register(fastifyCompress, {
    encodings: ["br", "gzip"],
    // Clients send plain bodies; inflating uploads would let a small request grow past the body limit.
    globalDecompression: false,
  });
  app.addHook("onRoute", (route) => {
    const count = hooksBefore.get(route);
    const hooks = onRequestHooks(route);
    if (count === undefined || hooks.length !== count + 1) return;
    route.onRequest = count === 0 ? undefined : hooks.slice(0, count);
  });
});

type OnRequestHook = Extract<NonNullable<RouteOptions["onRequest"]>, unknown[]>[number];

function onRequestHooks(route: RouteOptions): OnRequestHook[] {
  return [route.onRequest ?? []].flat();
}
