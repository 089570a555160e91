import { notReadySchema, readySchema } from "@tally/contract";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/test-app.js";
import type { Database } from "../../db/schema.js";
import { knownMigrations } from "../../db/migrate.js";
import { checkReadiness } from "./readiness.service.js";

const t = useTestApp();
const ready = () => t.app.inject({ method: "GET", url: "/api/health-check/ready" });

describe("GET /api/health-check/ready", () => {
  it("answers 200 with the engine and the migrations when every one is applied", async () => {
    const res = await ready();
    expect(res.statusCode).toBe(200);
    const known = knownMigrations();
    expect(readySchema.parse(res.json())).toEqual({
      status: "ready",
      database: t.database.engine,
      migrations: { applied: known.length, latest: known.at(-1) },
    });
    // Liveness stays where it was, and says nothing about migrations.
    const live = await t.app.inject({ method: "GET", url: "/api/health-check" });
    expect(live.json()).toMatchObject({ status: "ok" });
  });

  it("answers 503 naming the missing migration when the database is behind this build", async () => {
    const latest = knownMigrations().at(-1) ?? "";
    const row = await t.db.selectFrom("kysely_migration" as never).selectAll().where("name" as never, "=", latest as never).executeTakeFirstOrThrow();
    await sql`delete from kysely_migration where name = ${latest}`.execute(t.db);
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      const body = notReadySchema.parse(res.json());
      const before = knownMigrations().at(-2);
      expect(body).toMatchObject({
        status: "not_ready",
        reason: "migrations_pending",
        migrations: { applied: knownMigrations().length - 1, latest: before, expected: latest, pending: [latest] },
      });
      expect(body.message).toContain("npm run cli -- migrate");
    } finally {
      await t.db.insertInto("kysely_migration" as never).values(row as never).execute();
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it("names the database's newest migration and the one this build expects when a newer build migrated the database", async () => {
    const known = knownMigrations();
    const newer = "999-from-a-newer-build";
    await t.db.insertInto("kysely_migration" as never).values({ name: newer, timestamp: new Date().toISOString() } as never).execute();
    try {
      const res = await ready();
      expect(res.statusCode).toBe(200);
      expect(readySchema.parse(res.json())).toEqual({
        status: "ready",
        database: t.database.engine,
        migrations: { applied: known.length + 1, latest: newer, expected: known.at(-1) },
      });
    } finally {
      await sql`delete from kysely_migration where name = ${newer}`.execute(t.db);
    }
  });

  it("answers 503 with every migration pending in a database never migrated", async () => {
    await sql`alter table kysely_migration rename to kysely_migration_away`.execute(t.db);
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ reason: "migrations_pending", migrations: { applied: 0, latest: null, expected: knownMigrations().at(-1), pending: knownMigrations() } });
    } finally {
      await sql`alter table kysely_migration_away rename to kysely_migration`.execute(t.db);
    }
  });

  it("answers 503 without the database's error text when the database does not answer", async () => {
    // A PostgreSQL nobody listens on: connection refused, whichever engine the suite runs on.
    const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    pool.on("error", () => {});
    const unreachable = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Swapped in after start-up: the app needs its database to start (the notification hub).
    const real = t.ctx.database;
    t.ctx.database = { ...real, db: unreachable };
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(notReadySchema.parse(res.json())).toEqual({
        status: "not_ready",
        database: t.database.engine,
        reason: "database_unreachable",
        message: "The database does not answer.",
      });
      expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      t.ctx.database = real;
      await unreachable.destroy();
    }
  });

  it("gives up on a database that hangs instead of keeping the probe waiting", async () => {
    const never = new Promise<never>(() => {});
    const slow = { ...t.database, db: new Proxy(t.db, { get: (target, key) => (key === "executeQuery" ? () => never : Reflect.get(target, key)) }) };
    const started = Date.now();
    const result = await checkReadiness(slow, 100);
    expect(result.ready).toBe(false);
    expect(result.body).toMatchObject({ reason: "database_unreachable" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
