import { type Kysely, sql } from "kysely";

// A weekly import's preview keeps its plan for the commit of the same files (imports'
// preview-cache.ts), which must know that nothing the plan was made from has changed since.
// Every statement that writes one of these tables takes the next value of a sequence:
// sequences are not transactional, so no writer waits for another, and a write rolled back
// still counts as a change (the plan is made again: never wrong, only slower).
const TABLES = ["schools", "cohorts", "teams", "students", "student_cohorts", "student_teams", "attendance_records", "weekly_data"];

const up: string[] = [
  `create sequence data_version`,
  `create function bump_data_version() returns trigger language plpgsql as $$
   begin perform nextval('data_version'); return null; end $$`,
  ...TABLES.map(
    (table) => `create trigger ${table}_data_version after insert or update or delete or truncate on ${table}
       for each statement execute function bump_data_version()`,
  ),
];

export async function migrate015(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
