import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/**
 * The rule, for every route registered under /api (whatever module adds it, later ones too):
 * - it declares a response schema for at least one success (2xx) status, or for the redirect
 *   (3xx) of a browser navigation (single sign-on's start and callback), and every response
 *   schema it declares is a zod schema (so it comes from the contract, not inline JSON);
 * - a path with a `:param` declares a zod params schema;
 * - a query string schema is a zod object (the query guard refuses any parameter not among its keys);
 * - a multipart upload declares its form (multipartForm, a zod object) for the API document.
 * HEAD routes are Fastify's copies of the GET ones and are checked as those. The OpenAPI
 * document is the one exception: it describes the others and has the OpenAPI standard's shape.
 */
const EXEMPT = new Set(["GET /api/openapi.json"]);
// The API reference page and its files (Swagger UI): hidden from the document it renders.
const isApiDocs = (url: string) => url === "/api/docs" || url.startsWith("/api/docs/");

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function problemsOf(route: TestApp["routes"][number]): string[] {
  const problems: string[] = [];
  const response = (route.schema?.response ?? {}) as Record<string, unknown>;
  const success = Object.keys(response).filter((status) => /^[23]\d\d$/.test(status));
  if (success.length === 0) problems.push("no response schema for a 2xx status");
  for (const [status, schema] of Object.entries(response)) {
    if (!(schema instanceof z.ZodType)) problems.push(`response ${status} is not a zod schema`);
  }
  if (route.url.includes(":") && !(route.schema?.params instanceof z.ZodType)) problems.push("no zod params schema");
  if (route.schema?.querystring !== undefined && !(route.schema.querystring instanceof z.ZodObject)) {
    problems.push("querystring is not a zod object");
  }
  if (route.schema?.consumes?.includes("multipart/form-data") && !(route.schema.multipartForm instanceof z.ZodObject)) {
    problems.push("a multipart upload without its multipartForm");
  }
  return problems;
}

describe("route schemas", () => {
  it("every /api route has a zod response schema for its success status", () => {
    const checked = t.routes.filter((r) => r.url.startsWith("/api/") && r.method !== "HEAD");
    // The walk must see the modules, or an empty list would pass.
    expect(checked.length).toBeGreaterThan(30);
    const failures = checked
      .filter((r) => !EXEMPT.has(`${r.method} ${r.url}`) && !isApiDocs(r.url))
      .flatMap((r) => problemsOf(r).map((p) => `${r.method} ${r.url}: ${p}`));
    expect(failures).toEqual([]);
  });
});
