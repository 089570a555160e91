import { Ajv, type ValidateFunction } from "ajv";
import addFormatsPlugin from "ajv-formats";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { createOneTimeToken } from "../src/modules/sessions/sessions.service.js";
import { signUnsubscribeToken } from "../src/modules/digests/unsubscribe-token.js";
import { buildMatrixWorld, type MatrixWorld } from "./authorization-matrix.world.js";
import { useTestApp } from "./test-app.js";

// Every GET operation of the API document, called as a client built from the document would:
// the status, the content type and the body of each answer must be what the document says.

type Schema = Record<string, unknown>;
type Response = { content?: Record<string, { schema: Schema }> };
type Operation = { security?: Array<Record<string, string[]>>; parameters?: Array<{ in: string; name: string; required?: boolean }>; responses: Record<string, Response> };
type Document = { paths: Record<string, Record<string, Operation>> };

// One single sign-on provider, unreachable: its start and callback answer their documented
// redirects (to the web app's refusal page) without any network.
const t = useTestApp({
  config: {
    oidcProviders: [{ id: "idp", name: "IdP", issuer: "https://127.0.0.1:9", clientId: "c", clientSecret: "s", domains: [], requireSso: false }],
  },
});
let world: MatrixWorld;
let gets: Array<{ path: string; op: Operation }>;
let resetToken = "";
let verifyToken = "";
let bystanderId = 0;
let unsubscribeToken = "";

// ajv-formats' CommonJS export, as Node's ESM interop hands it over.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
// A file's bytes: any string.
ajv.addFormat("binary", true);

beforeAll(async () => {
  world = await buildMatrixWorld(t);
  const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json<Document>();
  gets = Object.entries(doc.paths).flatMap(([path, methods]) => (methods.get ? [{ path, op: methods.get }] : []));
  const bystander = await t.db.selectFrom("users").select("id").where("username", "=", world.bystander.username).executeTakeFirstOrThrow();
  resetToken = await createOneTimeToken(t.ctx, bystander.id, "password_reset", 60);
  verifyToken = await createOneTimeToken(t.ctx, bystander.id, "email_verify", 60);
  bystanderId = bystander.id;
  unsubscribeToken = await signUnsubscribeToken(t.ctx.config.secretKey, bystander.id, new Date());
}, 180_000);

/** Realistic path parameters: the world's rows. A GET added with a new one is named here. */
function pathValue(path: string, name: string): number | string {
  if (path.startsWith("/api/users/")) return world.sessions.district.user.id;
  if (path.startsWith("/api/auth/oidc/")) return "idp";
  if (["/api/students/{id}", "/api/attendance/student/{id}", "/api/weekly-data/{studentId}", "/api/students/{id}/access-log", "/api/students/{id}/export", "/api/students/{id}/alerts"].includes(path)) return world.ownStudentId;
  throw new Error(`has a path parameter {${name}} the test has no realistic value for: add one to pathValue`);
}

/** The required query parameters that need a real value (the live connection's token is its security scheme). */
function requiredQuery(path: string): Record<string, string> {
  if (path === "/api/auth/verify-reset-token") return { token: resetToken };
  if (path === "/api/auth/verify") return { token: verifyToken };
  if (path === "/api/digests/preview") return { userId: String(bystanderId) };
  if (path === "/api/digests/unsubscribe") return { token: unsubscribeToken };
  return {};
}

/** The URL of a GET operation, with its path parameters filled in and `query` (plus its required ones) appended. */
function urlOf(path: string, op: Operation, query: Record<string, string> = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => String(pathValue(path, name)));
  const required = requiredQuery(path);
  for (const p of op.parameters ?? []) {
    if (p.in === "query" && p.required && !(p.name in required)) throw new Error(`documents a required ?${p.name}= the test has no value for`);
  }
  const search = new URLSearchParams({ ...required, ...query }).toString();
  return search ? `${filled}?${search}` : filled;
}

/** OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum as JSON Schema's numbers (ajv reads `nullable` itself). */
function jsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Property names are not keywords: only their schemas are converted.
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, jsonSchema(v)])) : jsonSchema(value);
  }
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) {
      delete out[flag];
    }
  }
  return out;
}

const validators = new Map<Schema, ValidateFunction>();
function validatorFor(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(jsonSchema(schema) as Schema)));
  return validate;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
  location: string;
}

/** What is wrong with an answer by the document (nothing: undefined). */
function mismatch(op: Operation, answer: Answer): string | undefined {
  const documented = op.responses[String(answer.status)];
  if (!documented) return `answered ${answer.status}, which is not documented (${Object.keys(op.responses).join(", ")}): ${answer.body.slice(0, 200)}`;
  // A documented redirect (a browser navigation such as single sign-on's) has a Location, not a body.
  if (answer.status >= 300 && answer.status < 400) return answer.location ? undefined : `answered ${answer.status} without a Location`;
  const mediaType = answer.contentType.split(";")[0]?.trim() ?? "";
  const media = documented.content?.[mediaType];
  if (!media) return `answered ${answer.status} as ${mediaType || "no content type"}; documented: ${Object.keys(documented.content ?? {}).join(", ")}`;
  let body: unknown = answer.body;
  if (mediaType === "application/json") {
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `answered ${answer.status} with a body that is not JSON: ${answer.body.slice(0, 200)}`;
    }
  }
  const validate = validatorFor(media.schema);
  if (!validate(body)) return `answered ${answer.status} with a body the document does not allow: ${ajv.errorsText(validate.errors, { separator: "; " })}`;
  return undefined;
}

/** Calls a GET; an event stream is read until its first event, then closed (it never ends by itself). */
async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = (await t.app.inject({ method: "GET", url, headers, payloadAsStream: true })) as LightMyRequestResponse & {
    stream(): NodeJS.ReadableStream & { destroy(): void };
  };
  const contentType = String(res.headers["content-type"] ?? "");
  const stream = res.stream();
  let body = "";
  for await (const chunk of stream) {
    body += String(chunk);
    if (contentType.startsWith("text/event-stream") && body.includes("\n\n")) break;
  }
  stream.destroy();
  return { status: res.statusCode, contentType, body, location: String(res.headers.location ?? "") };
}

/** Calls GET `path` as the document describes it and judges the answer; a request the document cannot describe is a problem too. */
async function tryCall(
  path: string,
  op: Operation,
  query: Record<string, string>,
  headers: Record<string, string>,
  judge: (answer: Answer) => string | undefined,
): Promise<string | undefined> {
  let url: string;
  try {
    url = urlOf(path, op, query);
  } catch (error) {
    return (error as Error).message;
  }
  return judge(await get(url, headers));
}

const credentialsFor = (op: Operation): { headers: Record<string, string>; query: Record<string, string> } => {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  const { token, headers } = world.sessions.superAdmin;
  return {
    headers: schemes.includes("bearerAuth") ? headers : {},
    query: schemes.includes("queryToken") ? { token } : {},
  };
};

describe("every GET operation, against the API document", () => {
  it("answers a signed-in super admin with a documented success: status, content type and body", async () => {
    expect(gets.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const { path, op } of gets) {
      const { headers, query } = credentialsFor(op);
      const problem = await tryCall(path, op, query, headers, (answer) =>
        // A 3xx passes only where the document names it (mismatch).
        answer.status >= 400 ? `answered ${answer.status}: ${answer.body.slice(0, 200)}` : mismatch(op, answer),
      );
      if (problem) failures.push(`GET ${path} ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it("refuses a caller without credentials with the documented 401", async () => {
    const failures: string[] = [];
    const guarded = gets.filter(({ op }) => (op.security ?? []).some((s) => "bearerAuth" in s));
    expect(guarded.length).toBeGreaterThan(20);
    for (const { path, op } of guarded) {
      const problem = await tryCall(path, op, {}, {}, (answer) => (answer.status !== 401 ? `answered ${answer.status}, not 401` : mismatch(op, answer)));
      if (problem) failures.push(`GET ${path} ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it("refuses a query parameter it does not take with the documented 400", async () => {
    const failures: string[] = [];
    for (const { path, op } of gets) {
      const { headers, query } = credentialsFor(op);
      const problem = await tryCall(path, op, { ...query, notAParameter: "1" }, headers, (answer) =>
        answer.status !== 400 ? `answered ${answer.status}, not 400` : mismatch(op, answer),
      );
      if (problem) failures.push(`GET ${path} ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it("refuses the live connection without its ?token= with the documented 401", async () => {
    const failures: string[] = [];
    const live = gets.filter(({ op }) => (op.security ?? []).some((s) => "queryToken" in s));
    expect(live.map(({ path }) => path).sort()).toEqual(["/api/notifications", "/api/notifications-poll"]);
    for (const { path, op } of live) {
      const problem = await tryCall(path, op, {}, {}, (answer) => (answer.status !== 401 ? `answered ${answer.status}, not 401` : mismatch(op, answer)));
      if (problem) failures.push(`GET ${path} ${problem}`);
    }
    expect(failures).toEqual([]);
  });
});
