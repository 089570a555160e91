import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/test-app.js";

const t = useTestApp();

type Operation = { tags?: string[]; security?: unknown[]; responses?: Record<string, unknown> };
async function openapi() {
  const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  return res.json<{ paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } }>();
}

describe("GET /api/openapi.json", () => {
  it("declares the bearer scheme and documents every route with a tag, its replies and its auth", async () => {
    const doc = await openapi();
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ at: `${m} ${path}`, op })));
    expect(operations.length).toBeGreaterThan(40);
    for (const { at, op } of operations) {
      expect(op.tags?.length, at).toBeGreaterThan(0);
      expect(Object.keys(op.responses ?? {}).some((s) => /^2\d\d$/.test(s)), at).toBe(true);
    }
    expect(operations.some(({ at }) => at.includes("/api/docs"))).toBe(false);
  });

  it("marks guarded routes with the bearer scheme and their 401/403, and leaves public ones open", async () => {
    const doc = await openapi();
    const audit = doc.paths["/api/audit"]?.get;
    expect(audit?.security).toEqual([{ bearerAuth: [] }]);
    expect(audit?.tags).toEqual(["audit"]);
    expect(Object.keys(audit?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    const login = doc.paths["/api/auth/login"]?.post;
    expect(login?.security).toBeUndefined();
    expect(Object.keys(login?.responses ?? {})).toContain("400");
  });
});

describe("GET /api/docs", () => {
  it("serves the reference page under its own policy: its scripts and styles from here, nothing from elsewhere", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe|https?:)/);
    // Its files load from the same path (the page's policy allows 'self' only).
    expect(res.body).toContain('src="/api/docs/static/swagger-ui-bundle.js"');
    const bundle = await t.app.inject({ method: "GET", url: "/api/docs/static/swagger-ui-bundle.js" });
    expect(bundle.statusCode).toBe(200);
  });

  it("keeps the API's own policy everywhere else under /api", async () => {
    for (const url of ["/api/health-check", "/api/openapi.json", "/api/docsx"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers["content-security-policy"], url).toBe("default-src 'none';frame-ancestors 'none'");
    }
  });
});
