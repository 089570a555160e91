import { type Kysely, sql } from "kysely";

// Issue 41, performance of the dashboard.
// - The "previous week" totals are read from the rollups, with only the students that changed
//   since the week began counted again (summarizeStudentsBefore). Finding those few must not
//   read every student: students created, and cohort and team memberships joined, since a
//   moment; and the students whose newest team is a given team.
// - The admin's team list (4,000 teams, 1.8 MB of JSON) cost 28-57 ms of CPU to build on the
//   embedded engine however it was written, so a server keeps the reply it built and reuses it
//   while team_list_version says no team, school or cohort changed. A row, not a sequence: it
//   moves with the writer's transaction, so no reader sees the new number before the new rows.
const up: string[] = [
  `create index students_created_at_idx on students (created_at)`,
  `create index student_cohorts_joined_at_idx on student_cohorts (joined_at)`,
  `create index student_teams_joined_at_idx on student_teams (joined_at)`,
  `create index student_rollup_newest_team_idx on student_rollup (newest_team_id, school_key)`,

  `create table team_list_version (id boolean primary key default true check (id), version bigint not null)`,
  `insert into team_list_version (id, version) values (true, 1)`,
  `create function bump_team_list_version() returns trigger language plpgsql as $$
   begin update team_list_version set version = version + 1; return null; end $$`,
  ...["teams", "schools", "cohorts"].flatMap((table) => [
    `create trigger ${table}_team_list_version after insert or update or delete or truncate on ${table}
       for each statement execute function bump_team_list_version()`,
    // As every trigger of Tally's (migration 016): the embedded import writes in the replica role.
    `alter table ${table} enable always trigger ${table}_team_list_version`,
  ]),
];

export async function migrate031(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
