import { csvCell, csvRecord, importFormFieldsSchema, processFlagsFieldsSchema } from "@tally/contract";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { encodeAny, fromSchema, hostileString, keysOf, queryFrom, rawJsonFrom, RAW_URL_ESCAPES } from "./bad-input.arbitraries.js";
import { accessRecorder } from "../src/modules/access-log/access-log.service.js";
import { buildFuzzWorld, changedTables, type FuzzWorld, tableChecksums } from "./bad-input.world.js";
import { importForm, WEEK3_NEW_COHORT, week3Files } from "./import-upload.js";
import { type InjectedReply, injectReply } from "./inject-reply.js";
import { parseCleanCsv } from "./messy-csv.js";
import { formulaCells, readAsSpreadsheet } from "./spreadsheet-reading.js";
import { useTestApp } from "./test-app.js";

// Property-based bad input against every route that reads a body, a query, a path parameter or
// an upload: no answer may be a 5xx, every refusal must say why, and a refused request must
// leave every table as it was. Deterministic: one seed, a few runs per route.

const SEED = 15_2026;
const RUNS_PER_ROUTE = 20;

const t = useTestApp();
let world: FuzzWorld;
let routes: FuzzRoute[];

interface FuzzRoute {
  method: string;
  url: string;
  key: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  multipart?: z.ZodType;
}

/** The multipart routes' text fields (their files are read by hand, so no body schema names them). */
const MULTIPART_FIELDS: Record<string, z.ZodType> = {
  "/api/flag-upload/preview-weekly-data": importFormFieldsSchema,
  "/api/flag-upload/commit-weekly-data": importFormFieldsSchema,
  "/api/flag-upload/process-flags": processFlagsFieldsSchema,
};
const FILE_FIELDS = ["attendanceReport", "progressReport", "reflectionReport"];

beforeAll(async () => {
  routes = t.routes
    .filter((r) => r.method !== "HEAD" && r.url.startsWith("/api/"))
    .map((r) => {
      const schema = (r.schema ?? {}) as { params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; consumes?: string[] };
      const route: FuzzRoute = { method: r.method, url: r.url, key: `${r.method} ${r.url}` };
      if (schema.params) route.params = schema.params;
      if (schema.querystring) route.query = schema.querystring;
      if (schema.body) route.body = schema.body;
      if (schema.consumes?.includes("multipart/form-data")) route.multipart = MULTIPART_FIELDS[r.url];
      return route;
    })
    .filter((r) => r.params || r.query || r.body || r.multipart);
  world = await buildFuzzWorld(t, routes.length);
}, 180_000);

/** Sends one request; the event stream is read as its status only (it never ends by itself). */
const send = (options: InjectOptions): Promise<InjectedReply> => injectReply(t.app, options);

/** What a refused answer must be: not a 5xx, a JSON body with an error text, and no table changed. */
function problemOf(sent: InjectedReply, before: Record<string, string>, after: Record<string, string>): string | undefined {
  if (sent.status >= 500) return `answered ${sent.status}: ${sent.body.slice(0, 300)}`;
  if (sent.status < 400) return undefined;
  const changed = changedTables(before, after);
  if (changed.length > 0) return `refused with ${sent.status} but changed ${changed.join(", ")}`;
  let body: { error?: unknown; code?: unknown } = {};
  try {
    body = JSON.parse(sent.body) as typeof body;
  } catch {
    // Not JSON: reported below.
  }
  if (typeof body.error !== "string" || body.error.length === 0) return `refused with ${sent.status} without an error text: ${sent.body.slice(0, 200)}`;
  if (typeof body.code !== "string" || body.code.length === 0) return `refused with ${sent.status} without an error code: ${sent.body.slice(0, 200)}`;
  return undefined;
}

type Caller = "superAdmin" | "school";

/**
 * The tables after the request's writes: the record of access writes its rows up to a second
 * later, so a read that was answered is flushed now and never shows up as the next refusal's change.
 */
async function settledChecksums() {
  await accessRecorder(t.ctx).flush();
  return tableChecksums(t.db);
}

/** Runs the property for one route: every generated request must satisfy problemOf. */
async function fuzzRoute(route: FuzzRoute, index: number, request: fc.Arbitrary<{ caller: Caller; options: InjectOptions }>) {
  let baseline = await tableChecksums(t.db);
  const sessions = world.sessionsFor(index);
  await fc.assert(
    fc.asyncProperty(request, async ({ caller, options }) => {
      const headers = { ...options.headers, authorization: `Bearer ${sessions[caller].token}` };
      const sent = await send({ ...options, headers });
      const after = await settledChecksums();
      const problem = problemOf(sent, baseline, after);
      baseline = after;
      if (problem) throw new Error(`${route.key} as ${caller} (${String(options.url).slice(0, 200)}): ${problem}`);
    }),
    { seed: SEED + index, numRuns: RUNS_PER_ROUTE },
  );
}

const callerArb = fc.constantFrom<Caller>("superAdmin", "school");

/** The path with each :param replaced: a real-looking id most often, else a hostile segment. */
function pathFrom(route: FuzzRoute): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 60 }).map(String), weight: 3 },
    { arbitrary: hostileString().map(encodeAny), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_URL_ESCAPES), weight: 1 },
  );
  const names = route.url.match(/:[A-Za-z]+/g) ?? [];
  return fc.tuple(...names.map(() => segment)).map((values) => {
    let path = route.url;
    for (const value of values) path = path.replace(/:[A-Za-z]+/, value);
    return path;
  });
}

function jsonRequest(route: FuzzRoute) {
  const body = route.body as z.ZodType;
  const payload = fc.oneof(
    { arbitrary: fromSchema(body).map((value) => JSON.stringify(value) ?? "null"), weight: 4 },
    { arbitrary: rawJsonFrom(body), weight: 2 },
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constant("application/json"), weight: 8 },
    { arbitrary: fc.constantFrom("application/json; charset=utf-16", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"), weight: 1 },
  );
  return fc.record({
    caller: callerArb,
    options: fc.tuple(pathFrom(route), route.query ? queryFrom(route.query) : fc.constant(""), payload, contentType).map(
      ([path, query, text, type]): InjectOptions => ({
        method: route.method as InjectOptions["method"],
        url: query ? `${path}?${query}` : path,
        headers: { "content-type": type },
        payload: text,
      }),
    ),
  });
}

function queryRequest(route: FuzzRoute) {
  return fc.record({
    caller: callerArb,
    options: fc.tuple(pathFrom(route), route.query ? queryFrom(route.query) : fc.constant("")).map(
      ([path, query]): InjectOptions => ({ method: route.method as InjectOptions["method"], url: query ? `${path}?${query}` : path }),
    ),
  });
}

/** Serialises a form, so its bytes can be cut short or its header lied about. */
async function formBytes(form: FormData): Promise<{ bytes: Buffer; type: string }> {
  const response = new Response(form);
  return { bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get("content-type") ?? "" };
}

function multipartRequest(route: FuzzRoute) {
  const fields = route.multipart as z.ZodType;
  const real = week3Files();
  const fieldValue = fc.oneof(
    { arbitrary: fc.constantFrom("3", "1", "Fuzz Cohort", "Projects", "2026-06-29", "2026-08-10", "120"), weight: 3 },
    { arbitrary: hostileString(), weight: 2 },
  );
  const fileContent = fc.oneof(
    { arbitrary: fc.constantFrom(...Object.values(real)).map((f) => f.bytes), weight: 3 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 300 }).map((s) => new TextEncoder().encode(s)), weight: 2 },
    { arbitrary: fc.constantFrom("", "a,b\n", "\uFEFF", "\"unterminated,\n", "x".repeat(70_000)).map((s) => new TextEncoder().encode(s)), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 400 }), weight: 1 },
  );
  const form = fc
    .tuple(
      fc.dictionary(fc.oneof({ arbitrary: fc.constantFrom(...keysOf(fields)), weight: 4 }, { arbitrary: hostileString(), weight: 1 }), fieldValue, { maxKeys: 6 }),
      fc.dictionary(fc.oneof({ arbitrary: fc.constantFrom(...FILE_FIELDS), weight: 4 }, { arbitrary: hostileString(), weight: 1 }), fileContent, { maxKeys: 4 }),
    )
    .map(([textFields, files]) =>
      importForm(
        textFields,
        Object.fromEntries(Object.entries(files).map(([field, bytes]) => [field, { name: `${field}.csv`, bytes }])),
      ),
    );
  const shape = fc.constantFrom("whole", "truncated", "lying header", "no boundary", "garbage", "another content type");
  return fc.record({
    caller: callerArb,
    options: fc
      .tuple(form, shape, fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ maxLength: 500 }), fc.constantFrom(...NOT_A_FORM))
      .map(([f, kind, cut, garbage, other]) => ({ f, kind, cut, garbage, other })),
  }).map(({ caller, options }) => ({ caller, options: options as unknown as InjectOptions }));
}

/** Bodies an upload route may be sent instead of a form, each with the status it must answer. */
interface NotAForm {
  name: string;
  type: string;
  body: string;
  status: 400 | 415;
}
const NOT_A_FORM: NotAForm[] = [
  { name: "malformed JSON", type: "application/json", body: '{"a":', status: 415 },
  { name: "malformed JSON (braces)", type: "application/json", body: "{{}", status: 415 },
  { name: "well-formed JSON", type: "application/json", body: '{"cohortId":1,"currentWeek":3}', status: 415 },
  { name: "plain text", type: "text/plain", body: "cohortId=1", status: 415 },
  { name: "a URL-encoded form", type: "application/x-www-form-urlencoded", body: "cohortId=1&currentWeek=3", status: 415 },
  { name: "no content type", type: "", body: "cohortId=1", status: 415 },
  { name: "a multipart body with a broken boundary", type: "multipart/form-data; boundary=abc", body: "--abd\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--abd--", status: 400 },
];

/** Multipart requests are built asynchronously (a form's bytes), so their property is its own. */
async function fuzzMultipart(route: FuzzRoute, index: number) {
  let baseline = await tableChecksums(t.db);
  const sessions = world.sessionsFor(index);
  await fc.assert(
    fc.asyncProperty(multipartRequest(route), async ({ caller, options }) => {
      const { f, kind, cut, garbage, other } = options as unknown as { f: FormData; kind: string; cut: number; garbage: Uint8Array; other: NotAForm };
      const { bytes, type } = await formBytes(f);
      let payload: Buffer = bytes;
      let contentType = type;
      if (kind === "truncated") payload = bytes.subarray(0, Math.floor(bytes.length * cut));
      if (kind === "lying header") contentType = "multipart/form-data; boundary=not-the-boundary";
      if (kind === "no boundary") contentType = "multipart/form-data";
      if (kind === "garbage") payload = Buffer.from(garbage);
      if (kind === "another content type") [contentType, payload] = [other.type, Buffer.from(other.body)];
      const headers = { "content-type": contentType, authorization: `Bearer ${sessions[caller].token}` };
      const sent = await send({ method: "POST", url: route.url, headers, payload });
      const after = await settledChecksums();
      const problem = problemOf(sent, baseline, after);
      baseline = after;
      if (problem) throw new Error(`${route.key} as ${caller} (${kind}): ${problem}`);
    }),
    { seed: SEED + index, numRuns: RUNS_PER_ROUTE },
  );
}

/** Runs every route, collecting each one's failure (with fast-check's counterexample) rather than stopping at the first. */
async function fuzzAll(pick: (r: FuzzRoute) => boolean, run: (r: FuzzRoute, i: number) => Promise<void>): Promise<string[]> {
  const failures: string[] = [];
  const picked = routes.filter(pick);
  expect(picked.length).toBeGreaterThan(0);
  for (const route of picked) {
    try {
      await run(route, routes.indexOf(route));
    } catch (err) {
      // fast-check's report: the seed and path to replay, then the request's own error.
      const report = (err as Error).message.split("\n").slice(0, 2).join(" ");
      failures.push(`${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message} [${report}]`);
    }
  }
  return failures;
}

describe("bad input", () => {
  it("JSON bodies: wrong types, huge strings, deep nesting, unicode, duplicated keys", async () => {
    const failures = await fuzzAll(
      (r) => r.body !== undefined,
      (r, i) => fuzzRoute(r, i, jsonRequest(r)),
    );
    expect(failures).toEqual([]);
  }, 240_000);

  it("queries and path parameters: wrong types, broken escapes, unicode, repeated and unknown keys", async () => {
    const failures = await fuzzAll(
      (r) => r.body === undefined && !r.multipart,
      (r, i) => fuzzRoute(r, i, queryRequest(r)),
    );
    expect(failures).toEqual([]);
  }, 240_000);

  it("uploads: odd fields and files, truncated and invalid multipart", async () => {
    const failures = await fuzzAll((r) => r.multipart !== undefined, fuzzMultipart);
    expect(failures).toEqual([]);
  }, 240_000);

  // Found by hand (issue 27): a JSON body to process-flags reached the handler, and the 400
  // that the JSON parser made did not fit the route's 400 schema: 500 FST_ERR_RESPONSE_SERIALIZATION.
  it.each(NOT_A_FORM)("answers $name sent to an upload route with $status and the error body", async ({ type, body, status }) => {
    const uploads = routes.filter((r) => r.multipart);
    expect(uploads.map((r) => r.url).sort()).toEqual(Object.keys(MULTIPART_FIELDS).sort());
    for (const route of uploads) {
      const before = await tableChecksums(t.db);
      const headers: Record<string, string> = { ...world.spare.headers };
      if (type) headers["content-type"] = type;
      const res = await t.app.inject({ method: "POST", url: route.url, headers, payload: body });
      expect(res.statusCode, `${route.url}: ${res.body}`).toBe(status);
      // process-flags' own 400s also carry the spec's fields (status, validationErrors…).
      expect(res.json(), route.url).toMatchObject({ error: expect.stringMatching(/multipart\/form-data|form/), code: "VALIDATION_ERROR" });
      expect(changedTables(before, await tableChecksums(t.db))).toEqual([]);
    }
  });

  it("refuses a JSON body with a field its schema does not name (400 naming the field) on every route that reads one, and changes nothing", async () => {
    const jsonRoutes = routes.filter((r) => r.body);
    expect(jsonRoutes.length).toBeGreaterThan(30);
    const before = await tableChecksums(t.db);
    const wrong: string[] = [];
    for (const route of jsonRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, "1");
      const res = await t.app.inject({ method: route.method as InjectOptions["method"], url, headers: world.spare.headers, payload: { zzUnknownField: 1 } });
      let reply: { error?: unknown; code?: unknown; details?: Array<{ path: string; message: string }> } = {};
      try {
        reply = res.json();
      } catch {
        // Not JSON: counted as wrong below.
      }
      const named = reply.details?.some((d) => d.path === "body.zzUnknownField" && d.message.includes('"zzUnknownField"'));
      if (res.statusCode !== 400 || reply.code !== "VALIDATION_ERROR" || !named || !String(reply.error).includes('"zzUnknownField"')) {
        wrong.push(`${route.key}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(changedTables(before, await tableChecksums(t.db))).toEqual([]);
  });

  it.each(['{"a":', "{{}", '{"a":1,}', "\uFEFF{"])("answers malformed JSON %j sent to any route that reads a JSON body with 400 and the error body", async (body) => {
    const jsonRoutes = routes.filter((r) => r.body);
    expect(jsonRoutes.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const route of jsonRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, "1");
      const res = await t.app.inject({ method: route.method as InjectOptions["method"], url, headers: { ...world.spare.headers, "content-type": "application/json" }, payload: body });
      let reply: { error?: unknown; code?: unknown } = {};
      try {
        reply = res.json();
      } catch {
        // Not JSON: counted as wrong below.
      }
      if (res.statusCode !== 400 || typeof reply.error !== "string" || reply.code !== "VALIDATION_ERROR") wrong.push(`${route.key}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  // Found by the upload fuzzing: busboy's refusals carry no code and ended as 500s.
  it.each([
    ["another boundary than the body's", "multipart/form-data; boundary=not-the-boundary", (bytes: Buffer) => bytes],
    ["no boundary", "multipart/form-data", (bytes: Buffer) => bytes],
    ["a body cut short", "", (bytes: Buffer) => bytes.subarray(0, 500)],
    ["one byte of garbage", "multipart/form-data; boundary=x", () => Buffer.from([0])],
  ])("refuses an upload with %s as a broken form (400)", async (_, type, body) => {
    const { bytes, type: formType } = await formBytes(importForm({ weekNumber: 3 }, week3Files()));
    for (const url of Object.keys(MULTIPART_FIELDS)) {
      const headers = { ...world.spare.headers, "content-type": type || formType };
      const res = await t.app.inject({ method: "POST", url, headers, payload: body(bytes) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("The upload is not a complete form. Please send the three report files again.");
    }
  });

  // Found by this case: the CSV parser grew one 10 MB field so slowly that the upload took
  // ~10 s of CPU to refuse. Records are now capped (MAX_RECORD_CHARS).
  it.each(["attendanceReport", "progressReport", "reflectionReport"] as const)(
    "refuses a 10 MB single-line CSV as the %s without a 5xx and without writing (the reader stops at the long row: read-table.test.ts)",
    async (field) => {
      const line = { name: "one-line.csv", bytes: new TextEncoder().encode("x".repeat(10 * 1024 * 1024 - 1024)) };
      const form = importForm({ ...WEEK3_NEW_COHORT, cohortName: `One line ${field}` }, { ...week3Files(), [field]: line });
      const before = await tableChecksums(t.db);
      const res = await t.app.inject({ method: "POST", url: "/api/flag-upload/commit-weekly-data", headers: world.spare.headers, payload: form });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe("one-line.csv has a row longer than 256 KB, which no report has: check that it is the right CSV export");
      expect(changedTables(before, await tableChecksums(t.db))).toEqual([]);
    },
    30_000,
  );
});

describe("CSV injection", () => {
  const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;
  const dangerous = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !PLAIN_NUMBER.test(cell);

  it("neutralises every exported cell that would start a formula (=, +, -, @, tab, CR)", async () => {
    const superAdmin = world.spare;
    const res = await t.app.inject({ method: "GET", url: `/api/reports/students.csv?schoolId=${world.injectionSchoolId}`, headers: superAdmin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const data = parseCleanCsv(res.body.replace(/^\uFEFF/, "")).rows;
    // Every student of the school is there, and its cells are the formula names, neutralised.
    expect(data.length).toBeGreaterThanOrEqual(9);
    expect(data.flat().filter(dangerous)).toEqual([]);
    expect(data.flat().filter((cell) => cell.startsWith("'=") || cell.startsWith("'+") || cell.startsWith("'@")).length).toBeGreaterThan(9);
  });

  it("neutralises any text a cell can hold", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("=", "+", "-", "@", "\t", "\r").chain((lead) => fc.string().map((s) => lead + s))), (text) => {
        // One record of one cell: a line break or quote left bare would split it.
        const { headers, rows } = parseCleanCsv(`${csvCell(text)}\r\n`);
        return headers.length === 1 && rows.length === 0 && !dangerous(headers[0] ?? "");
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
  it("starts no formula in any record of any texts, read with `;`, a tab or a comma as the separator", () => {
    const lead = fc.constantFrom("=", "+", "-", "@", "\t", "\r", '"', ";", ",", "\n");
    const sly = fc.array(fc.oneof(lead, fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.array(fc.oneof(sly, fc.string({ unit: "binary" })), { minLength: 1, maxLength: 4 }), (cells) => {
        const text = csvRecord(cells);
        return [";", "\t", ","].every((separator) => formulaCells(readAsSpreadsheet(text, separator)).length === 0);
      }),
      { seed: SEED, numRuns: 1_000 },
    );
  });
});
