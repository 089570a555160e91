import { type Kysely, sql } from "kysely";

// The team filter of the attendance trend: the summary's primary key starts with school_id,
// so without this a team's weeks are found by scanning every summary row.
const up: string[] = [`create index attendance_summary_team_idx on attendance_summary (team_id, week_number)`];

export async function migrate002(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
