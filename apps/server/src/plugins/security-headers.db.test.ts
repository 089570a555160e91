import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/test-app.js";
import { buildApp } from "../app.js";

const HSTS = "max-age=31536000; includeSubDomains";
const EXPECTED_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

const direct = useTestApp();
const proxied = useTestApp({ config: { trustProxy: 1 } });
let web: FastifyInstance;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), "tally-web-"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Tally</title>");
  writeFileSync(join(webDist, "app.js"), "console.log('app')\n//# sourceMappingURL=app.js.map");
  writeFileSync(join(webDist, "app.js.map"), '{"version":3,"sources":["secret-source.ts"]}');
  web = await buildApp({ ctx: direct.ctx, webDist });
  await web.ready();
});
afterAll(async () => {
  await web?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const directives = (csp: string | string[] | number | undefined) => String(csp).split(/;\s*/).filter(Boolean);

describe("security headers", () => {
  it("give every reply the common headers, and deny browser features", async () => {
    for (const res of [
      await direct.app.inject({ method: "GET", url: "/api/health-check" }),
      await web.inject({ method: "GET", url: "/" }),
    ]) {
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
      const permissions = String(res.headers["permissions-policy"]).split(/,\s*/);
      for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) {
        expect(permissions).toContain(feature);
      }
    }
  });

  it("give pages the app's policy with object-src 'none', and the API a policy that allows nothing", async () => {
    const page = await web.inject({ method: "GET", url: "/" });
    expect(page.statusCode).toBe(200);
    expect(directives(page.headers["content-security-policy"]).sort()).toEqual([...EXPECTED_PAGE_CSP].sort());
    expect(page.headers["cache-control"]).not.toBe("no-store");

    for (const url of ["/api/health-check", "/api/no-such-thing"]) {
      const api = await direct.app.inject({ method: "GET", url });
      expect(directives(api.headers["content-security-policy"]).sort(), url).toEqual(["default-src 'none'", "frame-ancestors 'none'"]);
      expect(api.headers["cache-control"], url).toBe("no-store");
    }
  });

  it("let pages connect to the backends the API Debug page is configured to test, and to nothing else", async () => {
    const config = { ...direct.ctx.config, debugBackendOrigins: ["https://dev.example.org", "https://tally.example.org"] };
    const withBackends = await buildApp({ ctx: { ...direct.ctx, config }, webDist });
    try {
      const page = await withBackends.inject({ method: "GET", url: "/" });
      const connect = directives(page.headers["content-security-policy"]).find((d) => d.startsWith("connect-src"));
      expect(connect).toBe("connect-src 'self' https://dev.example.org https://tally.example.org");
    } finally {
      await withBackends.close();
    }
  });

  it("send Strict-Transport-Security only for HTTPS as told by a trusted proxy", async () => {
    const viaProxy = (headers: Record<string, string>) =>
      proxied.app.inject({ method: "GET", url: "/api/health-check", headers, remoteAddress: "10.0.0.2" });
    expect((await viaProxy({ "x-forwarded-proto": "https" })).headers["strict-transport-security"]).toBe(HSTS);
    expect((await viaProxy({ "x-forwarded-proto": "http" })).headers["strict-transport-security"]).toBeUndefined();
    expect((await viaProxy({})).headers["strict-transport-security"]).toBeUndefined();

    // Without TRUST_PROXY the header is anyone's to write, so it counts for nothing.
    const spoofed = await direct.app.inject({ method: "GET", url: "/api/health-check", headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers["strict-transport-security"]).toBeUndefined();
  });

  it("never serve source maps, whatever the spelling of the path", async () => {
    expect((await web.inject({ method: "GET", url: "/app.js" })).statusCode).toBe(200);
    for (const url of ["/app.js.map", "/app.js.MAP", "/app.js.m%61p", "/app.js.map?v=1"]) {
      const res = await web.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain("secret-source");
    }
  });
});
