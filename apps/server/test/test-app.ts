import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { type Kysely, sql } from "kysely";
import { buildApp } from "../src/app.js";
import { type Config, testConfig, testDatabaseUrl } from "../src/config.js";
import type { ServerContext } from "../src/context.js";
import { type DatabaseHandle, openDatabase } from "../src/db/connection.js";
import { migrateToLatest } from "../src/db/migrate.js";
import type { Database } from "../src/db/schema.js";
import { type Clock, systemClock } from "../src/lib/clock.js";
import { createMailer, type Mailer } from "../src/lib/mailer.js";
import { databaseOutbox } from "../src/modules/mail/mail.service.js";

export interface TestApp {
  app: FastifyInstance;
  ctx: ServerContext;
  db: Kysely<Database>;
  database: DatabaseHandle;
  /** Every registered route (HEAD ones included), in the order of registration. */
  routes: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  config?: Partial<Config>;
  /** Default: the database outbox (read it from mail_outbox). */
  mailer?: Mailer;
  /** Default: no logging. */
  logger?: FastifyServerOptions["logger"];
  /** Default: none (API only). */
  webDist?: string;
}

/**
 * A real, migrated database for one test file: embedded in memory, or a fresh schema in the
 * PostgreSQL named by TEST_DATABASE_URL (dropped again on close).
 */
export async function openTestDatabase(): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  const url = testDatabaseUrl();
  const schema = url ? `t_${randomBytes(6).toString("hex")}` : undefined;
  const database = await openDatabase({ databaseUrl: url, schema, poolSize: 4 });
  await migrateToLatest(database.db);
  return {
    database,
    async drop() {
      if (schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
      await database.close();
    },
  };
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const config = testConfig({ databaseUrl: testDatabaseUrl(), ...opts.config });
  const mailer =
    opts.mailer ?? createMailer({ from: config.mailFrom, outbox: databaseOutbox(database.db), log: { info: () => {} } });
  const ctx: ServerContext = { config, database, mailer, clock: opts.clock ?? systemClock };
  const routes: TestApp["routes"] = [];
  const app = await buildApp({
    ctx,
    logger: opts.logger,
    webDist: opts.webDist ?? "",
    onRoute: (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
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
