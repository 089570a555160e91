import { type Kysely, sql } from "kysely";

// Issue 30: a meeting report's `Excused` stays an absence in every count, but the record keeps
// that it was excused (the student's attendance list says so; alert rules will not count it as
// missed). Records imported before stay as they are: not excused.
const up: string[] = [`alter table attendance_records add column excused boolean not null default false`];

export async function migrate025(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
