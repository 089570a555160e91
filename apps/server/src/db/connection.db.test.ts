import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { useTestDatabase } from "../../test/test-app.js";
import { type DatabaseHandle, openDatabase } from "./connection.js";

describe("database connection and schema", () => {
  const database = useTestDatabase();

  test("dates come back as YYYY-MM-DD strings and counts as numbers", async () => {
    const c = await database.db
      .insertInto("cohorts")
      .values({ name: "C", program_type: "Projects", start_date: "2026-01-05", end_date: "2026-02-01" })
      .returning(["id", "start_date"])
      .executeTakeFirstOrThrow();
    expect(c.start_date).toBe("2026-01-05");
    const n = await database.db
      .selectFrom("cohorts")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
  });

  test("the attendance summary follows inserts, updates and deletes", async () => {
    const db = database.db;
    const s = await db.insertInto("schools").values({ name: "Summary School", district: "D" }).returning("id").executeTakeFirstOrThrow();
    const c = await db
      .insertInto("cohorts")
      .values({ name: "S", program_type: "Projects", start_date: "2026-01-05", end_date: "2026-02-01" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const st = await db.insertInto("students").values({ first_name: "a", last_name: "b", school_id: s.id }).returning("id").executeTakeFirstOrThrow();
    const base = { student_id: st.id, cohort_id: c.id, school_id: s.id, week_number: 1, meeting_type: "mentor" as const };
    await db
      .insertInto("attendance_records")
      .values([
        { ...base, date: "2026-01-05", status: "present" },
        { ...base, date: "2026-01-06", status: "late" },
        { ...base, date: "2026-01-07", status: "late" },
      ])
      .execute();
    const read = () => db.selectFrom("attendance_summary").selectAll().where("cohort_id", "=", c.id).execute();
    expect(await read()).toEqual([{ ...summaryKey(s.id, c.id), present: 1, late: 2, absent: 0 }]);

    const updated = await db.updateTable("attendance_records").set({ status: "absent" }).where("date", "=", "2026-01-06").executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    expect(await read()).toEqual([{ ...summaryKey(s.id, c.id), present: 1, late: 1, absent: 1 }]);

    await db.deleteFrom("attendance_records").where("cohort_id", "=", c.id).execute();
    expect(await read()).toEqual([]);
  });

  test("unique violations keep PostgreSQL's SQLSTATE code", async () => {
    await database.db.insertInto("schools").values({ name: "Dup", district: "" }).execute();
    await expect(database.db.insertInto("schools").values({ name: "dup", district: "" }).execute()).rejects.toMatchObject({
      code: "23505",
    });
  });

  test("statements from outside a transaction never run inside it", async () => {
    const db = database.db;
    let outsideInsert: Promise<unknown> | undefined;
    let outsideCount: Promise<{ n: number }> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("schools").values({ name: "Rolled Back", district: "" }).execute();
        // Issued by "another request" while the transaction is open.
        outsideInsert = db.insertInto("schools").values({ name: "Kept Outside", district: "" }).execute();
        outsideCount = db
          .selectFrom("schools")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("name", "=", "Rolled Back")
          .executeTakeFirstOrThrow();
        await new Promise((r) => setTimeout(r, 50));
        await trx.insertInto("schools").values({ name: "Also Rolled Back", district: "" }).execute();
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await outsideInsert;
    expect((await outsideCount)?.n).toBe(0);
    const names = (await db.selectFrom("schools").select("name").execute()).map((r) => r.name);
    expect(names).toContain("Kept Outside");
    expect(names).not.toContain("Rolled Back");
    expect(names).not.toContain("Also Rolled Back");
  });

  test("many statements in flight at once all get their own answers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        database.db.selectNoFrom((eb) => eb.val(i).as("v")).executeTakeFirstOrThrow(),
      ),
    );
    expect(answers.map((a) => Number(a.v))).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  test("a large result comes back whole and in order, while other statements run beside it", async () => {
    // The embedded engine sends more than 2,000 rows a slice at a time (pglite-worker.js).
    const [big, small, empty] = await Promise.all([
      sql<{ n: number; label: string }>`select n::int as n, 'row ' || n as label from generate_series(1, 6001) n`.execute(database.db),
      sql<{ n: number }>`select n::int as n from generate_series(1, 3) n`.execute(database.db),
      sql<{ n: number }>`select 1 as n where false`.execute(database.db),
    ]);
    expect(big.rows).toHaveLength(6001);
    expect(big.rows.every((r, i) => r.n === i + 1 && r.label === `row ${i + 1}`)).toBe(true);
    expect(small.rows.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(empty.rows).toEqual([]);
    const inTransaction = await database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n::int as n from generate_series(1, 4000) n`.execute(trx);
      return rows.reduce((sum, r) => sum + r.n, 0);
    });
    expect(inTransaction).toBe((4000 * 4001) / 2);
  });

  test("notifications reach listeners", async () => {
    const got: string[] = [];
    const stop = await database.listen("tally_test", (p) => got.push(p));
    await database.notify("tally_test", "hello");
    await expect.poll(() => got, { timeout: 5000 }).toEqual(["hello"]);
    await stop();
  });
});

describe("LISTEN / NOTIFY", () => {
  const database = useTestDatabase();

  test("a listener hears a pg_notify when its transaction commits, and never one rolled back", async () => {
    // Channels belong to the whole database: a name of its own keeps parallel suites apart.
    const channel = `conn_test_${randomBytes(4).toString("hex")}`;
    const heard: string[] = [];
    const waiters: Array<() => void> = [];
    const stop = await database.listen(channel, (payload) => {
      heard.push(payload);
      for (const wake of waiters.splice(0)) wake();
    });
    const heardCount = async (n: number) => {
      while (heard.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    };

    await database.db.transaction().execute(async (trx) => {
      await sql`select pg_notify(${channel}, 'committed')`.execute(trx);
      // Not before the commit.
      await trx.selectNoFrom((eb) => eb.val(1).as("one")).execute();
      expect(heard).toEqual([]);
    });
    await heardCount(1);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`select pg_notify(${channel}, 'rolled back')`.execute(trx);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await database.notify(channel, "outside a transaction");
    await heardCount(2);
    expect(heard).toEqual(["committed", "outside a transaction"]);

    await stop();
    await database.notify(channel, "after stop");
    await database.notify(channel, "after stop");
    await database.db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
    expect(heard).toEqual(["committed", "outside a transaction"]);
  });
});

function summaryKey(schoolId: number, cohortId: number) {
  return { school_id: schoolId, cohort_id: cohortId, team_id: 0, week_number: 1, meeting_type: "mentor" };
}

const showSharedBuffers = async (db: DatabaseHandle) => (await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db.db)).rows[0]?.shared_buffers;

describe("the embedded engine's settings", () => {
  test("PGLITE_SHARED_BUFFERS reaches the engine; 64MB otherwise, half PGlite's own default", async () => {
    const small = await openDatabase({ sharedBuffers: "16MB" });
    const plain = await openDatabase({});
    try {
      const show = showSharedBuffers;
      expect(await show(small)).toBe("16MB");
      expect(await show(plain)).toBe("64MB");
    } finally {
      await small.close();
      await plain.close();
    }
  });
});

describe("an embedded database begun from a tarball", () => {
  test("startFrom holds the dumped tables and rows, compressed or not; the source is untouched", async () => {
    const source = await openDatabase({});
    const copies: DatabaseHandle[] = [];
    try {
      await sql`create table kept (id int primary key, name text)`.execute(source.db);
      await sql`insert into kept values (1, 'Zoë'), (2, 'José')`.execute(source.db);
      for (const compress of [false, true]) {
        const copy = await openDatabase({ startFrom: await source.dumpDataDir!(compress) });
        copies.push(copy);
        const { rows } = await sql<{ name: string }>`select name from kept order by id`.execute(copy.db);
        expect(rows.map((r) => r.name)).toEqual(["Zoë", "José"]);
        await sql`insert into kept values (3, 'copy only')`.execute(copy.db);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kept`.execute(source.db);
      expect(rows[0]?.n).toBe(2);
    } finally {
      await Promise.all([source, ...copies].map((d) => d.close()));
    }
  });
});
