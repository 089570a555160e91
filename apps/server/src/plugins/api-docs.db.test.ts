import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestApp } from "../../test/test-app.js";
import { apiDocsPlugin } from "./api-docs.js";

const t = useTestApp();

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; format?: string; type?: string };
type Media = Record<string, { schema: Schema }>;
type Response = { description?: string; content?: Media; headers?: Record<string, { schema: Schema; description?: string }> };
type Operation = {
  tags?: string[];
  summary?: string;
  operationId?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; schema: Schema; description?: string }>;
  requestBody?: { content: Media };
  responses: Record<string, Response>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

async function openapi() {
  const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  return res.json<Document>();
}

async function operations() {
  const doc = await openapi();
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method, path, at: `${method.toUpperCase()} ${path}`, op })),
  );
}

async function operation(at: string) {
  const found = (await operations()).find((o) => o.at === at);
  if (!found) throw new Error(`${at} is not in the document`);
  return found.op;
}

const statuses = (op: Operation) => Object.keys(op.responses).map(Number);

describe("GET /api/openapi.json", () => {
  it("declares the bearer scheme and documents every route with a tag, its replies and its auth", async () => {
    const doc = await openapi();
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    const all = await operations();
    expect(all.length).toBeGreaterThan(40);
    for (const { at, op } of all) {
      expect(op.tags?.length, at).toBeGreaterThan(0);
      // The single sign-on start and callback are browser redirects: their success is a 302.
      const success = at.includes("/api/auth/oidc/") && !at.endsWith("/exchange") ? /^[23]\d\d$/ : /^2\d\d$/;
      expect(Object.keys(op.responses).some((s) => success.test(s)), at).toBe(true);
    }
    expect(all.some(({ at }) => at.includes("/api/docs"))).toBe(false);
  });

  it("gives every operation a summary and a camelCase operationId unique across the document", async () => {
    const all = await operations();
    const missing = all.filter(({ op }) => !op.summary?.trim() || !op.operationId).map(({ at }) => at);
    expect(missing).toEqual([]);
    const ids = all.map(({ op }) => op.operationId ?? "");
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("marks guarded routes with the bearer scheme and their 401/403, and public ones with security: []", async () => {
    const audit = await operation("GET /api/audit");
    expect(audit.security).toEqual([{ bearerAuth: [] }]);
    expect(audit.tags).toEqual(["audit"]);
    expect(statuses(audit)).toEqual(expect.arrayContaining([200, 400, 401, 403]));
    const login = await operation("POST /api/auth/login");
    expect(login.security).toEqual([]);
    expect(statuses(login)).toContain(400);
    expect((await operation("GET /api/health-check")).security).toEqual([]);
    for (const { at, op } of await operations()) expect(op.security, at).toBeDefined();
  });

  it("declares the live connection's ?token= as an apiKey in query, not as a parameter", async () => {
    const doc = await openapi();
    expect(doc.components.securitySchemes.queryToken).toMatchObject({ type: "apiKey", in: "query", name: "token" });
    for (const at of ["GET /api/notifications", "GET /api/notifications-poll"]) {
      const op = await operation(at);
      expect(op.security, at).toEqual([{ queryToken: [] }]);
      expect(op.parameters?.some((p) => p.name === "token") ?? false, at).toBe(false);
      expect(statuses(op), at).toContain(401);
    }
  });

  it("says in each operation's description who may call it, from the route's guard", async () => {
    const who = async (at: string) => /^\*\*Who may call:\*\* (.*?)\./.exec((await operation(at)).description ?? "")?.[1];
    expect(await who("GET /api/audit")).toBe("super_admin (other roles get 403)");
    expect(await who("GET /api/mail/outbox")).toBe("super_admin (other roles get 403)");
    expect(await who("POST /api/flag-upload/process-flags")).toBe("super_admin (other roles get 403)");
    expect(await who("GET /api/schools/admin")).toBe("super_admin, admin (other roles get 403)");
    expect(await who("POST /api/settings/features")).toBe("super_admin, admin (other roles get 403)");
    expect(await who("GET /api/students")).toBe("any signed-in user");
    expect(await who("GET /api/notifications")).toBe("any signed-in user");
    expect(await who("POST /api/auth/login")).toBe("anyone, without signing in");
    const unsaid = (await operations()).filter(({ op }) => !op.description?.startsWith("**Who may call:** ")).map(({ at }) => at);
    expect(unsaid).toEqual([]);
  });

  it("documents query defaults, those read through a transform too (simplified=true)", async () => {
    const param = async (at: string, name: string) => (await operation(at)).parameters?.find((p) => p.in === "query" && p.name === name);
    expect((await param("GET /api/reports/data", "simplified"))?.schema.default).toBe("true");
    expect((await param("GET /api/pdf-reports/generate", "includeStudents"))?.schema.default).toBe("true");
    expect((await param("GET /api/pdf-reports/generate", "studentLimit"))?.schema.default).toBe(100);
    expect((await param("GET /api/attendance/cohort-trends", "meetingType"))?.schema.default).toBe("both");
  });

  it("lists file and stream replies under the media type they are sent as", async () => {
    const success = async (at: string) => (await operation(at)).responses["200"]?.content ?? {};
    expect(Object.keys(await success("GET /api/reports/students.csv"))).toEqual(["text/csv"]);
    expect(Object.keys(await success("GET /api/audit/export.csv"))).toEqual(["text/csv"]);
    expect(await success("GET /api/pdf-reports/generate")).toEqual({
      "application/pdf": { schema: expect.objectContaining({ type: "string", format: "binary" }) },
    });
    expect(Object.keys(await success("GET /api/notifications"))).toEqual(["text/event-stream"]);
    // Their refusals stay JSON.
    expect(Object.keys((await operation("GET /api/reports/students.csv")).responses["404"]?.content ?? {})).toEqual(["application/json"]);
  });

  it("documents the three uploads' multipart forms, the files as binary", async () => {
    const form = async (at: string) => (await operation(at)).requestBody?.content["multipart/form-data"]?.schema;
    for (const at of ["POST /api/flag-upload/preview-weekly-data", "POST /api/flag-upload/commit-weekly-data"]) {
      const schema = await form(at);
      expect(schema?.required, at).toEqual(expect.arrayContaining(["attendanceReport", "progressReport", "reflectionReport", "weekNumber"]));
      for (const file of ["attendanceReport", "progressReport", "reflectionReport"]) {
        expect(schema?.properties?.[file], `${at} ${file}`).toMatchObject({ type: "string", format: "binary" });
      }
      expect(Object.keys(schema?.properties ?? {}), at).toEqual(expect.arrayContaining(["cohortId", "cohortName", "programType", "startDate"]));
    }
    const flags = await form("POST /api/flag-upload/process-flags");
    expect(flags?.required).toEqual(expect.arrayContaining(["progressReport", "reflectionReport", "attendanceReport", "cohortId", "currentWeek"]));
    expect(flags?.properties?.progressReport).toMatchObject({ type: "string", format: "binary" });
  });

  it("documents 413 and 415 on every route that reads a body, and on no GET", async () => {
    for (const { at, method, op } of await operations()) {
      const bodyStatuses = statuses(op).filter((s) => s === 413 || s === 415);
      expect(bodyStatuses, at).toEqual(method === "get" ? [] : [413, 415]);
    }
  });

  it("documents Retry-After on every 429", async () => {
    const limited = (await operations()).filter(({ op }) => op.responses["429"]);
    expect(limited.map(({ at }) => at).sort()).toEqual([
      "DELETE /api/auth/mfa/totp",
      "GET /api/alerts.csv",
      "GET /api/audit/export.csv",
      "GET /api/notifications",
      "GET /api/pdf-reports/generate",
      "GET /api/reports/data",
      "GET /api/reports/students.csv",
      "GET /api/students",
      "GET /api/students/{id}/export",
      "POST /api/auth/login",
      "POST /api/auth/mfa/passkey/verify",
      "POST /api/auth/mfa/reauth",
      "POST /api/auth/mfa/recovery-codes",
      "POST /api/auth/mfa/verify",
      "POST /api/email/send-report",
    ]);
    for (const { at, op } of limited) {
      expect(op.responses["429"]?.headers?.["Retry-After"]?.schema, at).toEqual({ type: "integer", minimum: 1 });
    }
  });

  it("documents 400 everywhere (an unknown query parameter) and drops statuses a route cannot give", async () => {
    for (const { at, op } of await operations()) expect(statuses(op), at).toContain(400);
    const expected: Record<string, number[]> = {
      "GET /api/health-check": [200, 400],
      "GET /api/auth/profile": [200, 400, 401],
      "POST /api/auth/login": [200, 400, 401, 403, 413, 415, 429],
      "POST /api/auth/refresh": [200, 400, 401, 413, 415],
      "POST /api/auth/request-reset/{id}": [200, 400, 401, 403, 404, 413, 415, 502],
      "GET /api/users": [200, 400, 401, 403],
      "GET /api/schools": [200, 400, 401],
      // A page larger than a view is a bulk read: the export gate may refuse or limit it.
      "GET /api/students": [200, 400, 401, 403, 429],
      "GET /api/students/{id}": [200, 400, 401, 404],
      "GET /api/reports/data": [200, 400, 401, 403, 404, 429],
      "GET /api/reports/students.csv": [200, 400, 401, 403, 404, 429],
      "GET /api/settings/demo": [200, 400, 401],
    };
    for (const [at, codes] of Object.entries(expected)) expect(statuses(await operation(at)).sort((a, b) => a - b), at).toEqual(codes);
  });
});

describe("a route added later", () => {
  it("stops the document when an onRequest hook cannot say whom it lets through", async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(apiDocsPlugin);
    app.get("/api/things", { onRequest: async () => {}, schema: { response: { 200: z.object({}) } } }, async () => ({}));
    await app.ready();
    expect(() => app.swagger()).toThrow("GET /api/things: an onRequest hook that is not a token guard");
    await app.close();
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
