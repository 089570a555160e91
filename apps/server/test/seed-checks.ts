import { type Kysely, sql } from "kysely";
import { expect } from "vitest";
import type { Database } from "../src/db/schema.js";

/** The attendance summary rows that attendance_records implies, next to the stored ones. */
export async function summaryMismatches(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with expected as (
      select school_id, cohort_id, team_id, week_number, meeting_type,
             count(*) filter (where status = 'present')::int as present,
             count(*) filter (where status = 'late')::int as late,
             count(*) filter (where status = 'absent')::int as absent
        from attendance_records
       group by school_id, cohort_id, team_id, week_number, meeting_type
    )
    select count(*)::int as n from (
      (select * from expected except select school_id, cohort_id, team_id, week_number, meeting_type, present, late, absent from attendance_summary)
      union all
      (select school_id, cohort_id, team_id, week_number, meeting_type, present, late, absent from attendance_summary except select * from expected)
    ) diff`.execute(db);
  return rows[0]?.n ?? -1;
}

export async function statusShares(db: Kysely<Database>): Promise<{ total: number; present: number; late: number; absent: number }> {
  const { rows } = await sql<{ total: number; present: number; late: number; absent: number }>`
    select count(*)::int as total,
           avg((status = 'present')::int)::float8 as present,
           avg((status = 'late')::int)::float8 as late,
           avg((status = 'absent')::int)::float8 as absent
      from attendance_records`.execute(db);
  const row = rows[0];
  if (!row) throw new Error("no attendance");
  return row;
}

/** The attendance both seeds write: about 90% present, late and absent a few percent each. */
export function expectTypicalShares(shares: { present: number; late: number; absent: number }): void {
  expect(shares.present).toBeGreaterThan(0.85);
  expect(shares.present).toBeLessThan(0.93);
  expect(shares.late).toBeGreaterThan(0.03);
  expect(shares.late).toBeLessThan(0.08);
  expect(shares.absent).toBeGreaterThan(0.03);
  expect(shares.absent).toBeLessThan(0.08);
}

/** A fingerprint of the generated content (names, statuses, flags) that ignores timestamps. */
export async function contentChecksum(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ sum: string }>`
    select md5(
      (select string_agg(id || ' ' || first_name || ' ' || last_name || ' ' || coalesce(email, ''), ',' order by id) from students)
      || (select string_agg(student_id || ' ' || date || ' ' || meeting_type || ' ' || status || ' ' || team_id, ',' order by student_id, date, meeting_type) from attendance_records)
      || (select string_agg(student_id || ' ' || cohort_id || ' ' || week_number || ' ' || flags::text || coalesce(hours_reported::text, ''), ',' order by student_id, cohort_id, week_number) from weekly_data)
    ) as sum`.execute(db);
  return rows[0]?.sum ?? "";
}
