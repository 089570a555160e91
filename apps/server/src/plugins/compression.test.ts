import { PassThrough } from "node:stream";
import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { IMPORT_PROGRESS_TYPE } from "@tally/contract";
import { compressionPlugin } from "./compression.js";

const BIG = "x".repeat(4096);
const guard = async () => {};

async function appWith(type: string) {
  const app = Fastify();
  await app.register(compressionPlugin);
  app.get("/stream", (_request, reply) => {
    const stream = new PassThrough();
    stream.end(`data: ${BIG}\n\n`);
    return reply.type(type).send(stream);
  });
  await app.ready();
  return app;
}

describe("compression of streams that must arrive as written", () => {
  test.each(["text/event-stream", IMPORT_PROGRESS_TYPE])("%s is sent uncompressed, even when the browser accepts brotli", async (type) => {
    const app = await appWith(type);
    try {
      const res = await app.inject({ method: "GET", url: "/stream", headers: { "accept-encoding": "br, gzip" } });
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.body).toBe(`data: ${BIG}\n\n`);
    } finally {
      await app.close();
    }
  });

  test("a text stream of another type is compressed", async () => {
    const app = await appWith("text/csv");
    try {
      const res = await app.inject({ method: "GET", url: "/stream", headers: { "accept-encoding": "gzip" } });
      expect(res.headers["content-encoding"]).toBe("gzip");
    } finally {
      await app.close();
    }
  });

  test("routes keep only the onRequest hooks they were given (the API reference reads each as a guard)", async () => {
    const seen: [string, unknown[]][] = [];
    const app = Fastify();
    await app.register(compressionPlugin);
    app.addHook("onRoute", (route) => {
      seen.push([`${String(route.method)} ${route.url}`, [route.onRequest ?? []].flat()]);
    });
    app.get("/none", () => "ok");
    app.get("/guarded", { onRequest: guard }, () => "ok");
    await app.ready();
    await app.close();
    expect(seen).toEqual([
      ["GET /none", []],
      ["HEAD /none", []],
      ["GET /guarded", [guard]],
      ["HEAD /guarded", [guard]],
    ]);
  });
});
