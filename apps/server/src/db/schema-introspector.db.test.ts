import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect, PostgresIntrospector } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useTestDatabase } from "../../test/test-app.js";
import { testDatabaseUrl } from "../config.js";
import { CurrentSchemaIntrospector } from "./schema-introspector.js";

const databaseUrl = testDatabaseUrl();

describe("the migrator's view of the database", () => {
  const database = useTestDatabase();

  test("lists this schema's tables with their columns, the migrator's own only when asked", async () => {
    const introspector = new CurrentSchemaIntrospector(database.db);
    const tables = await introspector.getTables();
    const students = tables.find((t) => t.name === "students");
    expect(students?.columns.map((c) => c.name)).toEqual(expect.arrayContaining(["id", "first_name", "last_name", "school_id"]));
    expect(students?.columns.find((c) => c.name === "first_name")).toMatchObject({ dataType: "text", isNullable: false });
    expect(tables.map((t) => t.name)).not.toContain("kysely_migration");
    const all = await introspector.getTables({ withInternalKyselyTables: true });
    expect(all.map((t) => t.name)).toEqual(expect.arrayContaining(["kysely_migration", "kysely_migration_lock", "students"]));
  });

  test("is the one the database handle (and so the migrator) uses", () => {
    expect(database.db.introspection).toBeInstanceOf(CurrentSchemaIntrospector);
  });

  // Parallel suites on one PostgreSQL each work in a schema of their own and drop it when done.
  // A catalog query that runs on an older snapshot while a sibling schema goes away still sees
  // that schema's rows; Kysely's introspector then looks the schema up by name and fails — the
  // migration of another suite failed this way on CI. A repeatable-read transaction holds such a
  // snapshot on purpose here.
  describe.runIf(databaseUrl)("PostgreSQL: a sibling schema dropped under a running migration", () => {
    const sibling = `t_${randomBytes(6).toString("hex")}`;
    let own: pg.Client;
    let other: pg.Client;
    beforeAll(async () => {
      const schema = (await database.db.selectNoFrom((eb) => eb.fn<string>("current_schema").as("s")).executeTakeFirstOrThrow()).s;
      own = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
      other = new pg.Client({ connectionString: databaseUrl });
      await Promise.all([own.connect(), other.connect()]);
    });
    afterAll(async () => {
      await other.query(`drop schema if exists "${sibling}" cascade`);
      await Promise.all([own.end(), other.end()]);
    });

    async function introspectAfterSiblingDropped(make: (db: Kysely<unknown>) => PostgresIntrospector) {
      await other.query(`create schema "${sibling}"; create table "${sibling}".x (id serial primary key)`);
      await own.query("begin isolation level repeatable read");
      await own.query("select count(*) from pg_catalog.pg_class");
      await other.query(`drop schema "${sibling}" cascade`);
      // One connection, already in the transaction: the introspector's query runs on its snapshot.
      const db = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: { connect: async () => Object.assign(own, { release: () => {} }), end: async () => {} } as never }),
      });
      try {
        return await make(db).getTables({ withInternalKyselyTables: true });
      } finally {
        await own.query("rollback");
      }
    }

    test("Kysely's own introspector fails on it (the failure this guards against)", async () => {
      await expect(introspectAfterSiblingDropped((db) => new PostgresIntrospector(db))).rejects.toThrow(/does not exist/);
    });

    test("the migrator's introspector does not", async () => {
      const tables = await introspectAfterSiblingDropped((db) => new CurrentSchemaIntrospector(db));
      expect(tables.map((t) => t.name)).toContain("kysely_migration");
      expect(tables.every((t) => t.schema !== sibling)).toBe(true);
    });
  });
});
