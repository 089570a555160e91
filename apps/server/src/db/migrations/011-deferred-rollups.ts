import { type Kysely, sql } from "kysely";

// A weekly import writes students, their cohort and their team in three statements, and each
// statement's trigger recomputed the same students' rollup rows: three times the work. Inside
// a transaction that sets tally.defer_rollups, the triggers leave it to the writer, which
// refreshes every student it touched once, before the transaction commits.
const guard = `if coalesce(current_setting('tally.defer_rollups', true), '') = 'on' then return null; end if;`;
const up: string[] = [
  `create or replace function student_rollup_students_new() returns trigger language plpgsql as $$
   begin ${guard} perform refresh_student_rollup(array(select id from new_rows)); return null; end $$`,
  `create or replace function student_rollup_students_old() returns trigger language plpgsql as $$
   begin ${guard} perform refresh_student_rollup(array(select id from old_rows)); return null; end $$`,
  `create or replace function student_rollup_members_new() returns trigger language plpgsql as $$
   begin ${guard} perform refresh_student_rollup(array(select distinct student_id from new_rows)); return null; end $$`,
  `create or replace function student_rollup_members_old() returns trigger language plpgsql as $$
   begin ${guard} perform refresh_student_rollup(array(select distinct student_id from old_rows)); return null; end $$`,
];

export async function migrate011(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
