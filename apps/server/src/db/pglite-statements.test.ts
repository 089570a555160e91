import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module shared with the worker, without type declarations
import { PreparedStatements } from "./pglite-statements.js";

interface Statements {
  size: number;
  query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[]; affectedRows: number }>;
}

let db: PGlite;
let statements: Statements;

beforeAll(async () => {
  db = await PGlite.create();
});

beforeEach(async () => {
  await db.exec("deallocate all; drop table if exists pets");
  statements = new PreparedStatements(db, 3) as Statements;
  await db.exec(`create table pets (id serial primary key, name text not null, born date, tags jsonb, good boolean)`);
  await db.exec(`insert into pets (name, born, tags, good) values
    ('Rex', '2020-05-01', '["loud"]', true), ('Tom', null, null, false), ('Ada', '2019-01-31', '{"a": 1}', null)`);
});

afterAll(async () => {
  await db.close();
});

describe("PreparedStatements", () => {
  it("answers exactly as PGlite's own query does, for every kind of parameter and column", async () => {
    const text = `select id, name, born, tags, good, $1::int + 1 as next, $2::text as label, $3::date as day,
      $4::jsonb as doc, $5::int[] as ids, $6::text as nothing
      from pets where id >= $1 order by id`;
    const params = [1, "x", "2026-11-22", JSON.stringify({ k: [1, 2] }), [3, 4], null];
    const expected = await db.query(text, params);
    const first = await statements.query(text, params);
    const again = await statements.query(text, params);
    expect(first.rows).toEqual(expected.rows);
    expect(again.rows).toEqual(expected.rows);
    expect(first.rows).toHaveLength(3);
    expect(statements.size).toBe(1);
  });

  it("keeps each statement's own parameters apart on repeated use", async () => {
    const text = "select name from pets where id = $1";
    expect((await statements.query(text, [1])).rows).toEqual([{ name: "Rex" }]);
    expect((await statements.query(text, [2])).rows).toEqual([{ name: "Tom" }]);
    expect((await statements.query(text, [99])).rows).toEqual([]);
  });

  it("sends writes straight through, with their affected-row counts", async () => {
    const res = await statements.query("update pets set good = true where good is not true", []);
    expect(res.affectedRows).toBe(2);
    expect(statements.size).toBe(0);
    const inserted = await statements.query("insert into pets (name) values ($1) returning id, name", ["Zed"]);
    expect(inserted.rows).toEqual([{ id: 4, name: "Zed" }]);
  });

  it("keeps PostgreSQL's error codes, caches nothing that failed, and the session goes on", async () => {
    await expect(statements.query("select nonsense from pets", [])).rejects.toMatchObject({ code: "42703" });
    expect(statements.size).toBe(0);
    await expect(statements.query("select 1 / $1::int as q", [0])).rejects.toMatchObject({ code: "22012" });
    expect((await statements.query("select 1 / $1::int as q", [1])).rows).toEqual([{ q: 1 }]);
    expect((await statements.query("select count(*)::int as n from pets", [])).rows).toEqual([{ n: 3 }]);
  });

  it("holds at most its capacity, closing the least recently used, which still works when it comes back", async () => {
    const texts = [1, 2, 3, 4].map((n) => `select ${n} as n, name from pets where id = $1`);
    for (const text of texts) await statements.query(text, [1]);
    expect(statements.size).toBe(3);
    const prepared = await db.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements");
    expect(prepared.rows[0]?.n).toBe(3);
    // The first one was closed; asking again prepares it afresh.
    expect((await statements.query(texts[0] as string, [3])).rows).toEqual([{ n: 1, name: "Ada" }]);
    expect(statements.size).toBe(3);
  });

  it("follows a schema change that alters what a cached statement returns", async () => {
    const text = "select * from pets where id = $1";
    expect(Object.keys((await statements.query(text, [1])).rows[0] ?? {})).not.toContain("weight");
    await db.exec("alter table pets add column weight int default 7");
    expect((await statements.query(text, [1])).rows[0]).toMatchObject({ name: "Rex", weight: 7 });
  });

  it("leaves a transaction's outcome to the transaction: a rolled-back write is gone", async () => {
    const count = "select count(*)::int as n from pets";
    expect((await statements.query(count, [])).rows).toEqual([{ n: 3 }]);
    await db.exec("begin");
    await statements.query("insert into pets (name) values ($1)", ["Tmp"]);
    expect((await statements.query(count, [])).rows).toEqual([{ n: 4 }]);
    await db.exec("rollback");
    expect((await statements.query(count, [])).rows).toEqual([{ n: 3 }]);
  });
});
