import { type Kysely, sql } from "kysely";
import { expect } from "vitest";
import type { Database } from "../src/db/schema.js";

/** Rows of `actual` missing from `expected` and the other way round: both empty when in step. */
async function diff(db: Kysely<Database>, expected: string, actual: string): Promise<unknown[]> {
  const { rows } = await sql
    .raw(`(${expected} except ${actual}) union all (${actual} except ${expected})`)
    .execute(db);
  return rows;
}

/** Every trigger-maintained rollup equals a recount from the source tables. */
export async function expectRollupsMatchRecount(db: Kysely<Database>): Promise<void> {
  const fresh = `select s.id, coalesce(s.school_id, 0) as school_key,
      (select st.team_id from student_teams st where st.student_id = s.id order by st.joined_at desc, st.team_id desc limit 1) as team_id,
      coalesce((select array_agg(sc.cohort_id order by sc.cohort_id) from student_cohorts sc where sc.student_id = s.id), '{}') as cohort_ids
    from students s`;
  expect(await diff(db, fresh, "select student_id, school_key, newest_team_id, cohort_ids from student_rollup")).toEqual([]);
  expect(
    await diff(
      db,
      "select coalesce(school_id, 0), count(*)::int from students group by 1",
      "select school_key, students from rollup_school_students where students <> 0",
    ),
  ).toEqual([]);
  expect(
    await diff(
      db,
      "select coalesce(s.school_id, 0), sc.cohort_id, count(*)::int from students s join student_cohorts sc on sc.student_id = s.id group by 1, 2",
      "select school_key, cohort_id, students from rollup_school_cohorts where students <> 0",
    ),
  ).toEqual([]);
  expect(
    await diff(
      db,
      `select f.school_key, f.team_id, count(*)::int from (${fresh}) f where f.team_id is not null group by 1, 2`,
      "select school_key, team_id, students from rollup_school_teams where students <> 0",
    ),
  ).toEqual([]);
  // Newest teams per students' school, with the team's own school and cohort (migration 004).
  const newest = `select distinct f.school_key, f.team_id, t.school_id as team_school_id, t.cohort_id as team_cohort_id
    from (${fresh}) f join teams t on t.id = f.team_id`;
  expect(
    await diff(
      db,
      `select school_key, team_school_id, team_cohort_id, count(*)::int from (${newest}) n group by 1, 2, 3`,
      "select school_key, team_school_id, team_cohort_id, teams from rollup_team_counts where teams <> 0",
    ),
  ).toEqual([]);
  expect(
    await diff(
      db,
      `select team_id, count(*)::int from (${newest}) n group by 1`,
      "select team_id, school_keys from rollup_team_spread where school_keys <> 0",
    ),
  ).toEqual([]);
  expect(
    await diff(
      db,
      "select r.team_id, t.school_id, t.cohort_id from rollup_school_teams r join teams t on t.id = r.team_id",
      "select team_id, team_school_id, team_cohort_id from rollup_school_teams",
    ),
  ).toEqual([]);
  const columns = "school_id, cohort_id, week_number, meeting_type";
  expect(
    await diff(
      db,
      `select ${columns}, count(*) filter (where status = 'present')::int, count(*) filter (where status = 'late')::int,
         count(*) filter (where status = 'absent')::int from attendance_records group by ${columns}`,
      `select ${columns}, present, late, absent from attendance_school_summary`,
    ),
  ).toEqual([]);
}

