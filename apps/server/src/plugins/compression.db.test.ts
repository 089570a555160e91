import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useTestApp } from "../../test/test-app.js";

// Big enough to pass the 1 KB threshold below which compressing costs more than it saves.
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(",")}];\n`;
const INDEX = `<!doctype html><html><head><title>Tally</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div>${"<!-- padding -->".repeat(100)}</body></html>`;

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  if (encoding === "gzip") return gunzipSync(body).toString("utf8");
  return body.toString("utf8");
}

describe("what the server sends, and for how long it may be kept", () => {
  let webDist: string;
  beforeAll(() => {
    webDist = mkdtempSync(join(tmpdir(), "tally-web-dist-"));
    mkdirSync(join(webDist, "assets"));
    writeFileSync(join(webDist, "index.html"), INDEX);
    writeFileSync(join(webDist, "assets", "index-abc123.js"), SCRIPT);
    writeFileSync(join(webDist, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(400)}</svg>`);
  });
  afterAll(() => {
    rmSync(webDist, { recursive: true, force: true });
  });
  const t = useTestApp(() => ({ webDist }));

  test("hashed assets may be kept a year without asking; the HTML and unhashed files are asked for each time", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(asset.statusCode, asset.body).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    for (const url of ["/", "/login", "/dashboard?school=1", "/index.html", "/favicon.svg"]) {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["cache-control"], url).toBe("no-cache");
    }
  });

  test.each(["br", "gzip"])("assets, pages and API replies come %s-compressed when the browser accepts it", async (encoding) => {
    for (const [url, body] of [
      ["/assets/index-abc123.js", SCRIPT],
      ["/index.html", INDEX],
      ["/login", INDEX],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": encoding } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"], url).toBe(encoding);
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(decoded(res.rawPayload, encoding), url).toBe(body);
    }

    const plain = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    const api = await t.app.inject({ method: "GET", url: "/api/openapi.json", headers: { "accept-encoding": encoding } });
    expect(api.headers["content-encoding"]).toBe(encoding);
    expect(api.headers["cache-control"]).toBe("no-store");
    expect(api.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(decoded(api.rawPayload, encoding))).toEqual(plain.json());
  });

  test("brotli is chosen over gzip when both are accepted, and nothing is compressed without Accept-Encoding", async () => {
    const both = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(both.headers["content-encoding"]).toBe("br");

    const none = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js", headers: { "accept-encoding": "identity" } });
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body).toBe(SCRIPT);
  });

  test("an API error is compressed too and stays a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/no-such-thing", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(decoded(res.rawPayload, res.headers["content-encoding"] as string | undefined))).toEqual({
      error: "Not found",
      code: "NOT_FOUND",
    });
  });
});
