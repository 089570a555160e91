import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { compressionPlugin } from "../plugins/compression.js";
import { encodeReply, sendEncoded } from "./encoded-reply.js";

const TEXT = JSON.stringify({ data: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Team ${i}` })) });

async function appSending(vary?: string) {
  const encoded = await encodeReply(TEXT);
  const app = Fastify();
  await app.register(compressionPlugin);
  app.get("/kept", (request, reply) => {
    if (vary !== undefined) reply.header("vary", vary);
    return sendEncoded(request, reply, encoded, "application/json; charset=utf-8");
  });
  await app.ready();
  return app;
}

describe("a kept reply sent in the encoding the request accepts", () => {
  test.each([
    ["br, gzip, deflate", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br;q=0.2, gzip;q=0.8", "gzip"],
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["deflate", undefined],
    ["identity", undefined],
    ["br;q=0, gzip;q=0", undefined],
  ])("Accept-Encoding %s gives %s, compressed once only", async (acceptEncoding, expected) => {
    const app = await appSending();
    try {
      const res = await app.inject({ method: "GET", url: "/kept", headers: { "accept-encoding": acceptEncoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe(expected);
      expect(res.headers.vary).toBe("accept-encoding");
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = expected === "br" ? brotliDecompressSync(res.rawPayload) : expected === "gzip" ? gunzipSync(res.rawPayload) : res.rawPayload;
      expect(body.toString("utf8")).toBe(TEXT);
    } finally {
      await app.close();
    }
  });

  test("without Accept-Encoding, or with x-no-compression, the identity bytes come", async () => {
    const app = await appSending();
    try {
      for (const headers of [{}, { "accept-encoding": "br, gzip", "x-no-compression": "1" }]) {
        const res = await app.inject({ method: "GET", url: "/kept", headers });
        expect(res.headers["content-encoding"]).toBeUndefined();
        expect(res.headers.vary).toBe("accept-encoding");
        expect(res.body).toBe(TEXT);
      }
    } finally {
      await app.close();
    }
  });

  test("a vary already set is added to, not replaced", async () => {
    const app = await appSending("origin");
    try {
      const res = await app.inject({ method: "GET", url: "/kept", headers: { "accept-encoding": "gzip" } });
      expect(res.headers.vary).toBe("origin, accept-encoding");
      expect(gunzipSync(res.rawPayload).toString("utf8")).toBe(TEXT);
    } finally {
      await app.close();
    }
  });
});
