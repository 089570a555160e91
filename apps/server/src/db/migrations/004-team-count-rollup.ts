import { type Kysely, sql } from "kysely";

// The summary's team count over every school counted distinct teams among thousands of
// rollup_school_teams rows, the slowest part of an admin's dashboard on the embedded engine.
// These rollups answer it from a few hundred rows:
// - rollup_team_counts: per students' school and the team's own school and cohort, how many
//   teams are some of those students' newest team;
// - rollup_team_spread: per team, at how many students' schools it is someone's newest team.
//   Summing rollup_team_counts counts a team once per school, so it is exact only while no
//   team spreads over two schools; readers check that first.
// Both follow rollup_school_teams through a row trigger, and a team's school or cohort is kept
// on its rollup_school_teams rows so a team that moves carries its counts along.
const up: string[] = [
  `alter table rollup_school_teams add column team_school_id integer, add column team_cohort_id integer`,
  `delete from rollup_school_teams where students = 0`,
  `update rollup_school_teams r set team_school_id = t.school_id, team_cohort_id = t.cohort_id from teams t where t.id = r.team_id`,
  `alter table rollup_school_teams alter column team_school_id set not null, alter column team_cohort_id set not null`,
  `create index rollup_school_teams_team_idx on rollup_school_teams (team_id)`,

  `create table rollup_team_counts (
    school_key integer not null,
    team_school_id integer not null,
    team_cohort_id integer not null,
    teams integer not null,
    primary key (school_key, team_school_id, team_cohort_id)
  )`,
  `create table rollup_team_spread (team_id integer primary key, school_keys integer not null)`,
  `create index rollup_team_spread_wide_idx on rollup_team_spread (team_id) where school_keys > 1`,

  // New rows take the team's school and cohort as they are now; teams_rollup_moved keeps them current.
  `create function rollup_school_teams_stamp() returns trigger language plpgsql as $$
   begin
     select t.school_id, t.cohort_id into new.team_school_id, new.team_cohort_id from teams t where t.id = new.team_id;
     return new;
   end $$`,
  `create function rollup_team_counts_follow() returns trigger language plpgsql as $$
   declare
     was boolean := tg_op <> 'INSERT' and old.students > 0;
     is_now boolean := tg_op <> 'DELETE' and new.students > 0;
   begin
     if was and is_now and old.team_school_id = new.team_school_id and old.team_cohort_id = new.team_cohort_id then
       return null;
     end if;
     if was then
       update rollup_team_counts set teams = teams - 1
        where school_key = old.school_key and team_school_id = old.team_school_id and team_cohort_id = old.team_cohort_id;
     end if;
     if is_now then
       insert into rollup_team_counts as c (school_key, team_school_id, team_cohort_id, teams)
       values (new.school_key, new.team_school_id, new.team_cohort_id, 1)
       on conflict (school_key, team_school_id, team_cohort_id) do update set teams = c.teams + 1;
     end if;
     if was and not is_now then
       update rollup_team_spread set school_keys = school_keys - 1 where team_id = old.team_id;
     elsif is_now and not was then
       insert into rollup_team_spread as s (team_id, school_keys) values (new.team_id, 1)
       on conflict (team_id) do update set school_keys = s.school_keys + 1;
     end if;
     return null;
   end $$`,
  `create function teams_rollup_moved() returns trigger language plpgsql as $$
   begin
     update rollup_school_teams set team_school_id = new.school_id, team_cohort_id = new.cohort_id where team_id = new.id;
     return null;
   end $$`,
  `create trigger rollup_school_teams_stamp before insert on rollup_school_teams
     for each row execute function rollup_school_teams_stamp()`,
  `create trigger rollup_team_counts_follow after insert or update or delete on rollup_school_teams
     for each row execute function rollup_team_counts_follow()`,
  `create trigger teams_rollup_moved after update of school_id, cohort_id on teams
     for each row when (old.school_id is distinct from new.school_id or old.cohort_id is distinct from new.cohort_id)
     execute function teams_rollup_moved()`,

  `insert into rollup_team_counts (school_key, team_school_id, team_cohort_id, teams)
   select school_key, team_school_id, team_cohort_id, count(*) from rollup_school_teams where students > 0 group by 1, 2, 3`,
  `insert into rollup_team_spread (team_id, school_keys)
   select team_id, count(*) from rollup_school_teams where students > 0 group by team_id`,
];

export async function migrate004(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
