import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useTestApp } from "../test/test-app.js";

describe("the app shell", () => {
  const t = useTestApp();

  test("health check answers with the engine in use", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health-check" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok", database: t.database.engine });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  test("the OpenAPI document is generated from the route schemas", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ["/api/auth/login", "/api/auth/refresh", "/api/students", "/api/users/{id}"]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  test("an unknown API path is a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
  });

  test("a malformed JSON body is a 400 with a message, never a 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(typeof res.json().error).toBe("string");
  });

  test("a body over the size limit is refused with 413", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ login: "x", password: "y".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("the web app's pages", () => {
  const INDEX = '<!doctype html><html><head><title>Tally</title></head><body><div id="root"></div></body></html>';
  let webDist: string;
  beforeAll(() => {
    webDist = mkdtempSync(join(tmpdir(), "tally-web-dist-"));
    writeFileSync(join(webDist, "index.html"), INDEX);
  });
  afterAll(() => {
    rmSync(webDist, { recursive: true, force: true });
  });
  // Registered after the folder's hooks: built once the folder exists, closed before it goes.
  const t = useTestApp(() => ({ webDist }));

  test("HEAD of a page route answers as GET does, without the body (uptime monitors)", async () => {
    for (const url of ["/", "/login", "/dashboard", "/set-password"]) {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"], url).toMatch(/^text\/html/);
      expect(page.body, url).toBe(INDEX);

      const head = await t.app.inject({ method: "HEAD", url });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers["content-type"], url).toBe(page.headers["content-type"]);
      expect(head.headers["content-length"], url).toBe(page.headers["content-length"]);
      expect(head.body, url).toBe("");
    }
  });

  test("unknown /api paths stay JSON 404s, whatever the method", async () => {
    for (const method of ["GET", "HEAD", "POST"] as const) {
      const res = await t.app.inject({ method, url: "/api/no-such-thing" });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers["content-type"], method).toMatch(/^application\/json/);
      if (method !== "HEAD") expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    }
    expect((await t.app.inject({ method: "POST", url: "/login" })).statusCode).toBe(404);
  });
});

describe("the sign-in page's own first paint", () => {
  const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
  const LOGIN = '<!doctype html><html><body><div id="root"><h1>Sign in to Tally</h1></div></body></html>';
  let webDist: string;
  beforeAll(() => {
    webDist = mkdtempSync(join(tmpdir(), "tally-web-dist-"));
    writeFileSync(join(webDist, "index.html"), INDEX);
    writeFileSync(join(webDist, "login.html"), LOGIN);
  });
  afterAll(() => {
    rmSync(webDist, { recursive: true, force: true });
  });
  const t = useTestApp(() => ({ webDist }));

  test("/login gets login.html (with or without a query); every other page index.html", async () => {
    for (const url of ["/login", "/login?session=expired"]) {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"], url).toMatch(/^text\/html/);
      expect(page.headers["cache-control"], url).toBe("no-cache");
      expect(page.body, url).toBe(LOGIN);
    }
    for (const url of ["/", "/dashboard", "/login/other", "/set-password"]) {
      expect((await t.app.inject({ method: "GET", url })).body, url).toBe(INDEX);
    }
  });
});
