import { type Kysely, sql } from "kysely";

// Issue 41, performance: the dashboard's "previous week" totals are read from the rollups, with
// only the students that changed since the week began counted again (summarizeStudentsBefore).
// Finding those few must not read every student: students created, and cohort and team
// memberships joined, since a moment; and students whose newest team is a given team.
const up: string[] = [
  `create index students_created_at_idx on students (created_at)`,
  `create index student_cohorts_joined_at_idx on student_cohorts (joined_at)`,
  `create index student_teams_joined_at_idx on student_teams (joined_at)`,
  `create index student_rollup_newest_team_idx on student_rollup (newest_team_id, school_key)`,
];

export async function migrate030(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
