import { randomBytes } from "node:crypto";
import { createWriteStream, readFileSync, type WriteStream } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { LoginResponse, SignedInResponse } from "@tally/contract";
import type { FastifyInstance, FastifySchema, FastifyServerOptions, InjectOptions } from "fastify";
import { type Kysely, sql } from "kysely";
import { afterAll, inject } from "vitest";
import { buildApp } from "../src/app.js";
import { type Config, testConfig, testDatabaseUrl, testLogDir } from "../src/config.js";
import type { ServerContext } from "../src/context.js";
import { type DatabaseHandle, openDatabase } from "../src/db/connection.js";
import { migrateToLatest } from "../src/db/migrate.js";
import type { Database } from "../src/db/schema.js";
import { type Clock, systemClock } from "../src/lib/clock.js";
import { createMailer, type Mailer } from "../src/lib/mailer.js";
import { setWorkerSourceLoader } from "../src/lib/module-worker.js";
import { type BuildUserOptions, buildUser } from "./factories.js";
import { filledBeforeAll } from "./filled-before-all.js";
import { databaseOutbox } from "../src/modules/mail/mail.service.js";
import { serverLoggerOptions } from "../src/lib/request-log.js";

// The server runs from its TypeScript source here: the worker threads it starts (the weekly
// import's) load that source through this hook.
setWorkerSourceLoader(new URL("./ts-worker/register.mjs", import.meta.url));

export interface TestApp {
  app: FastifyInstance;
  ctx: ServerContext;
  db: Kysely<Database>;
  database: DatabaseHandle;
  /** Every registered route (HEAD ones included), in the order of registration. */
  routes: Array<{ method: string; url: string; schema?: FastifySchema | undefined }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  config?: Partial<Config>;
  /** Default: the database outbox (read it from mail_outbox). */
  mailer?: Mailer;
  /** Default: the run's log (see runLogger), or none. */
  logger?: FastifyServerOptions["logger"];
  /** Default: none (API only). */
  webDist?: string;
  /** Heartbeat period of the notification streams. */
  heartbeatMs?: number;
  /** An already opened database (a second instance on the same one); the caller closes it. */
  database?: DatabaseHandle;
}

/**
 * A real, migrated database for one test file: embedded in memory, or a fresh schema in the
 * PostgreSQL named by TEST_DATABASE_URL (dropped again on close).
 */
export async function openTestDatabase(): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  const url = testDatabaseUrl();
  const schema = url ? `t_${randomBytes(6).toString("hex")}` : undefined;
  const database = await openDatabase({ databaseUrl: url, schema, poolSize: 4, startFrom: url ? undefined : migratedTemplate() });
  // Still run: a template older than the migrations (it never is within one run) would be caught up.
  await migrateToLatest(database.db);
  return {
    database,
    async drop() {
      if (schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
      await database.close();
    },
  };
}

let template: Uint8Array | undefined;

/** The run's migrated embedded database (database-template.setup.ts), when the project made one. */
function migratedTemplate(): Uint8Array | undefined {
  const file = inject("databaseTemplate");
  if (!file) return undefined;
  template ??= new Uint8Array(readFileSync(file));
  return template;
}

let runLog: WriteStream | undefined;

/**
 * When the run captures the server log (TALLY_TEST_LOG_DIR, set by tools/with-test-log.mjs),
 * every test app logs with the server's own options at trace level into it, one file per test
 * worker; afterwards the whole log is searched for tokens, links and passwords.
 */
function runLogger(): FastifyServerOptions["logger"] {
  const dir = testLogDir();
  if (!dir) return false;
  runLog ??= createWriteStream(join(dir, `${process.pid}-${threadId}.log`), { flags: "a" });
  return serverLoggerOptions("trace", runLog);
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = opts.database ? { database: opts.database, drop: async () => {} } : await openTestDatabase();
  const config = testConfig({ databaseUrl: testDatabaseUrl(), ...opts.config });
  const mailer =
    opts.mailer ?? createMailer({ from: config.mailFrom, outbox: databaseOutbox(database.db), log: { info: () => {} } });
  const ctx: ServerContext = { config, database, mailer, clock: opts.clock ?? systemClock };
  const routes: TestApp["routes"] = [];
  const app = await buildApp({
    ctx,
    logger: opts.logger ?? runLogger(),
    webDist: opts.webDist ?? "",
    heartbeatMs: opts.heartbeatMs,
    onRoute: (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema });
    },
  });
  await app.ready();
  return {
    app,
    ctx,
    db: database.db,
    database,
    routes,
    async close() {
      await app.close();
      await drop();
    },
  };
}

/**
 * The app of one test file: built in beforeAll (options may be a function, to use what an earlier
 * hook set up, such as an SMTP server), closed in afterAll.
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): TestApp {
  const t = filledBeforeAll(() => createTestApp(typeof options === "function" ? options() : options));
  afterAll(() => t.close?.());
  return t;
}

/** The migrated database of one test file, without an app: opened in beforeAll, dropped in afterAll. */
export function useTestDatabase(): DatabaseHandle {
  let drop: (() => Promise<void>) | undefined;
  const database = filledBeforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    return opened.database;
  });
  afterAll(() => drop?.());
  return database;
}

export interface LoggedIn extends SignedInResponse {
  /** Ready to spread into inject({ headers }). */
  headers: { authorization: string };
}

/** Signs in through POST /api/auth/login, as the web app does. */
export async function loginAs(
  app: FastifyInstance,
  user: { username: string; password: string },
): Promise<LoggedIn> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { login: user.username, password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`loginAs(${user.username}) failed: ${res.statusCode} ${res.body}`);
  const body = res.json<LoginResponse>();
  if ("mfaRequired" in body) throw new Error(`loginAs(${user.username}): the account asks for a second factor`);
  return { ...body, headers: { authorization: `Bearer ${body.token}` } };
}

/**
 * A new user of the file's app, signed in by a beforeAll. Its `headers` object is there from the
 * start, so `const { headers } = useSignedIn(...)` works at the top of a file.
 */
export function useSignedIn(t: TestApp, options: BuildUserOptions): LoggedIn {
  const session = { headers: { authorization: "" } } as LoggedIn;
  return filledBeforeAll(async () => {
    const { headers, ...rest } = await loginAs(t.app, await buildUser(t.db, options));
    Object.assign(session.headers, headers);
    return rest;
  }, session);
}

/** Listens on a free port of 127.0.0.1 (event streams and raw sockets need a real server); returns its base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

type Method = "GET" | "PUT" | "POST" | "DELETE";

/** `call(method, url, headers, payload?)` against the file's app, as the web client would. */
export function caller(t: Pick<TestApp, "app">) {
  return (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown) => {
    const options: InjectOptions = { method, url, headers };
    if (payload !== undefined) options.payload = payload as InjectOptions["payload"];
    return t.app.inject(options);
  };
}
