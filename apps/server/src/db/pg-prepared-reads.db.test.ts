import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testDatabaseUrl } from "../config.js";
import { keepReadsPrepared } from "./pg-prepared-reads.js";

// PostgreSQL only (TEST_DATABASE_URL): the embedded engine keeps its own (pglite-statements.js).
const url = testDatabaseUrl();
const numbered = (n: number) => `select ${n} as one from t limit 1`;

describe.skipIf(!url)("reads kept prepared on a PostgreSQL connection", () => {
  const schema = `prepared_${randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let client: pg.Client;

  const prepared = async () =>
    (await admin.query<{ statement: string }>("select statement from pg_prepared_statements")).rows.map((r) => r.statement);
  /**
   * The statements the test's connection holds (pg_prepared_statements shows only the asking
   * session's), asked through pg's callback: that form is passed on, not kept prepared.
   */
  const held = () =>
    new Promise<string[]>((resolve, reject) => {
      client.query<{ statement: string }>("select statement from pg_prepared_statements order by prepare_time", [], (err, res) =>
        err ? reject(err) : resolve(res.rows.map((r) => r.statement)),
      );
    });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await client.connect();
    keepReadsPrepared(client as unknown as pg.PoolClient, 3);
    await client.query("create table t (id int primary key, name text)");
    await client.query("insert into t values (1, 'a'), (2, 'b')");
  });

  afterAll(async () => {
    await client?.end();
    await admin?.query(`drop schema "${schema}" cascade`);
    await admin?.end();
  });

  test("a read is prepared once and answers as before; a write is not kept", async () => {
    const first = await client.query("select name from t where id = $1", [1]);
    const again = await client.query("select name from t where id = $1", [2]);
    expect(first.rows).toEqual([{ name: "a" }]);
    expect(again.rows).toEqual([{ name: "b" }]);
    const update = await client.query("update t set name = $1 where id = $2", ["c", 2]);
    expect(update.rowCount).toBe(1);
    const statements = await held();
    expect(statements.filter((s) => s === "select name from t where id = $1")).toHaveLength(1);
    expect(statements.some((s) => s.startsWith("update"))).toBe(false);
    // The admin's session sees none of them: they belong to the connection.
    expect(await prepared()).toEqual([]);
  });

  test("errors keep PostgreSQL's code, and the connection goes on", async () => {
    await expect(client.query("select nope from t")).rejects.toMatchObject({ code: "42703" });
    expect((await client.query("select count(*)::int as n from t")).rows).toEqual([{ n: 2 }]);
  });

  test("past its capacity the least recently used is deallocated, between transactions only", async () => {
    for (const n of [1, 2, 3, 4]) await client.query(numbered(n));
    // Capacity 3: the oldest went as each new one came, deallocated before it ran.
    expect(await held()).toEqual([numbered(2), numbered(3), numbered(4)]);
    await client.query("begin");
    for (const n of [5, 6]) await client.query(numbered(n));
    // Inside a transaction nothing is deallocated (a failure there would abort it).
    expect(await held()).toEqual([numbered(2), numbered(3), numbered(4), numbered(5), numbered(6)]);
    await client.query("commit");
    await client.query(numbered(7));
    expect(await held()).toEqual([numbered(5), numbered(6), numbered(7)]);
  });

  test("a read whose result changed shape is prepared again", async () => {
    const read = "select * from t where id = 1";
    expect((await client.query(read)).rows).toEqual([{ id: 1, name: "a" }]);
    await client.query("alter table t add column extra int default 7");
    expect((await client.query(read)).rows).toEqual([{ id: 1, name: "a", extra: 7 }]);
    expect((await client.query(read)).rows).toEqual([{ id: 1, name: "a", extra: 7 }]);
  });
});
