import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/test-app.js";

// The embedded engine's import writes with session_replication_role at "replica" (per-row
// foreign key checks left out): every trigger of Tally's own has to fire in that role too.

const t = useTestApp();

describe("Tally's triggers", () => {
  it("are all enabled always, so no write in the replica role skips a rollup or the data version", async () => {
    const { rows } = await sql<{ name: string; enabled: string }>`select c.relname || '.' || tg.tgname as name, tg.tgenabled as enabled
      from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
      where not tg.tgisinternal and c.relnamespace = current_schema()::regnamespace order by 1`.execute(t.db);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.enabled !== "A").map((r) => r.name)).toEqual([]);
  });

  it("still move the data version in the replica role, where foreign keys are not checked", async () => {
    const version = async () => (await sql<{ v: string }>`select last_value || ':' || is_called as v from data_version`.execute(t.db)).rows[0]?.v;
    const before = await version();
    const missingRefAccepted = await t.db.transaction().execute(async (trx) => {
      await sql`select set_config('session_replication_role', 'replica', true)`.execute(trx);
      await sql`update schools set id = id where false`.execute(trx);
      // A row naming no student: accepted in this role, which is why the import checks its ids itself.
      await sql`insert into student_cohorts (student_id, cohort_id) values (-1, -1)`.execute(trx);
      const n = (await sql<{ n: number }>`select count(*)::int as n from student_cohorts where student_id = -1`.execute(trx)).rows[0]?.n;
      await sql`delete from student_cohorts where student_id = -1`.execute(trx);
      return n;
    });
    expect(missingRefAccepted).toBe(1);
    expect(await version()).not.toBe(before);
  });
});
