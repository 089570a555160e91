import { type Kysely, sql } from "kysely";

// The flag uploader stores Benefit Assignment IDs on thousands of students in one update. The
// update trigger (is a student's school changing?) joined the statement's old and new rows
// with a plan made for a one-row update earlier in the session: 1.8 s for 5,000 rows. Like
// the triggers of migration 011, it now leaves the work to a writer that deferred it.
export async function migrate012(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create or replace function student_rollup_students_moved() returns trigger language plpgsql as $$
   begin
     if coalesce(current_setting('tally.defer_rollups', true), '') = 'on' then return null; end if;
     perform refresh_student_rollup(array(
       select n.id from new_rows n join old_rows o on o.id = n.id where n.school_id is distinct from o.school_id));
     return null;
   end $$`)
    .execute(db);
}
