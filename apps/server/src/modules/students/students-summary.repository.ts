import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import {
  cohortVisible,
  type DataScope,
  hiddenStudentsInScope,
  schoolInScope,
  studentInScope,
  teamInScope,
} from "../scope/scope.js";
import { filteredStudents, hasFilters, joinedBefore, type StudentFilters } from "./students-filter.repository.js";

// The students summary (schools, students, cohorts and current teams of a dashboard): from the
// trigger-kept rollups when nothing is filtered, else counted from the students.

/** The rollup's school column as students.school_id has it (null for none). */
const rollupSchool = sql<number | null>`nullif(school_key, 0)`;

/**
 * SQL (one row: students, schools, hidden): the students studentInScope shows and their
 * distinct schools, from the trigger-maintained per-school counts minus the few students
 * whose cohorts are all hidden: exact, without counting 50,000 rows. hidden > 0 tells the
 * caller that such students exist.
 */
export function shownStudentCounts(scope: DataScope) {
  const hidden = hiddenStudentsInScope(scope);
  const hiddenBySchool = hidden
    ? sql`select hs.school_id, count(*) as n from students hs where hs.id in (${hidden}) group by hs.school_id`
    : sql`select null::integer as school_id, 0::bigint as n where false`;
  return sql<{ students: number | null; schools: number; hidden: number | null }>`
    select sum(c.students - coalesce(h.n, 0)) as students,
           count(*) filter (where c.school_id is not null and c.students - coalesce(h.n, 0) > 0) as schools,
           sum(coalesce(h.n, 0)) as hidden
      from (select ${rollupSchool} as school_id, students from rollup_school_students where students > 0) c
      left join (${hiddenBySchool}) h on h.school_id is not distinct from c.school_id
     where ${schoolInScope(scope, "c.school_id", { nullable: true })}`;
}

/** SQL (from clause, as `tc`): rollup_team_counts' rows of the students at schools in scope. */
function countedNewestTeams(scope: DataScope) {
  return sql`(select ${rollupSchool} as student_school_id, team_school_id as school_id, team_cohort_id as cohort_id, teams
      from rollup_team_counts where teams > 0) tc where ${schoolInScope(scope, "tc.student_school_id", { nullable: true })}`;
}

/**
 * SQL: how many distinct teams are some student's newest team, among the students at schools in
 * scope, whether or not the team itself is in scope. From rollup_team_counts, a few hundred
 * rows: its sum counts a team once per students' school, exact unless some team spreads over
 * two schools; then distinct teams of rollup_school_teams (a subquery run only when asked).
 */
function newestTeamCount(scope: DataScope) {
  const teamsSummed = sql<number>`(select coalesce(sum(tc.teams), 0) from ${countedNewestTeams(scope)})`;
  const teamsDistinct = sql<number>`(select count(distinct rt.team_id) from
      (select ${rollupSchool} as school_id, team_id from rollup_school_teams where students > 0) rt
     where ${schoolInScope(scope, "rt.school_id", { nullable: true })})`;
  const spread = sql<boolean>`exists (select 1 from rollup_team_spread where school_keys > 1)`;
  return sql<number>`case when ${spread} then ${teamsDistinct} else ${teamsSummed} end`;
}

/**
 * Summary counts without filters, from the rollups. A cohort counts when some student of a
 * school in scope belongs to it and it is visible there (students left out as all-hidden
 * have no visible cohort, so they never add one). Teams: each student's newest team, which
 * is the current team in scope unless it lies outside the scope; when any student of the
 * scope has such a team (`outside`: then neither count of newestTeamCount is the answer), or
 * all-hidden students exist, teamCount is undefined and the caller counts exactly from the
 * memberships.
 */
async function summarizeFromRollups(
  db: DbExecutor,
  scope: DataScope,
): Promise<{ schoolCount: number; studentCount: number; cohortCount: number; teamCount: number | undefined }> {
  const cohorts = sql<number>`(select count(distinct rc.cohort_id) from
      (select ${rollupSchool} as school_id, cohort_id from rollup_school_cohorts where students > 0) rc
     where ${schoolInScope(scope, "rc.school_id", { nullable: true })} and ${cohortVisible(scope, "rc.cohort_id", "rc.school_id")})`;
  const counted = countedNewestTeams(scope);
  const teamsOutside = sql<boolean>`(select coalesce(bool_or(not coalesce(${teamInScope(scope, "tc")}, false)), false) from ${counted})`;
  // One round trip: on the embedded engine every query waits its turn in one worker.
  const { rows } = await sql<{
    students: number | null;
    schools: number;
    hidden: number | null;
    cohorts: number;
    teams: number;
    outside: boolean | null;
  }>`
    select shown.students, shown.schools, shown.hidden, ${cohorts} as cohorts,
           ${newestTeamCount(scope)} as teams,
           ${teamsOutside} as outside
      from (${shownStudentCounts(scope)}) shown`.execute(db);
  const row = rows[0];
  const exactTeams = Number(row?.hidden ?? 0) === 0 && row?.outside !== true;
  return {
    schoolCount: Number(row?.schools ?? 0),
    studentCount: Number(row?.students ?? 0),
    cohortCount: Number(row?.cohorts ?? 0),
    teamCount: exactTeams ? Number(row?.teams ?? 0) : undefined,
  };
}

/** Distinct schools, students, visible cohorts and current teams of the filtered students. */
export async function summarizeStudents(
  db: DbExecutor,
  scope: DataScope,
  filters: StudentFilters,
): Promise<{ schoolCount: number; studentCount: number; cohortCount: number; teamCount: number }> {
  const { before, ...others } = filters;
  if (before !== undefined && !hasFilters(others)) return summarizeStudentsBefore(db, scope, before);
  if (!hasFilters(filters)) {
    const quick = await summarizeFromRollups(db, scope);
    if (quick.teamCount !== undefined) return { ...quick, teamCount: quick.teamCount };
    return { ...quick, teamCount: await countCurrentTeams(db, scope, filters) };
  }
  return summarizeStudentsByScan(db, scope, filters);
}

/**
 * The unfiltered summary as it stood before `before` (the dashboard's "previous week"): the
 * same answer as summarizeStudentsByScan(scope, { before }), from the rollups instead of every
 * student (85 ms at 50,000 students, a few ms this way; issue 41).
 *
 * A student's share of the rollups (student_rollup: school, cohorts, newest team) is its share
 * of the scan's answer at `before` too, unless the student was created or joined a cohort or
 * team since then, is left out as all-hidden, or has a newest team outside the scope (the scan
 * then counts an older team). Those students, the few of a week, are taken out of the rollups'
 * counts and counted again as the scan counts them; any other student adds the same either way.
 */
export async function summarizeStudentsBefore(
  db: DbExecutor,
  scope: DataScope,
  before: Date,
): Promise<{ schoolCount: number; studentCount: number; cohortCount: number; teamCount: number }> {
  // Written in, not sent as a parameter: with one, PostgreSQL (either engine) planned the
  // statement afresh at every call, as a plan for "since some moment" expects thousands of rows.
  const at = sql.lit(before.toISOString());
  const hidden = hiddenStudentsInScope(scope);
  const inScope = (column: string) => schoolInScope(scope, column, { nullable: true });
  // Students counted at a school in scope whose newest team is not in scope: found from the few
  // hundred rows of rollup_team_counts first, so nothing more is read when there are none.
  const newestTeamOutside = sql`select ro_r.student_id
      from (select school_key, ${rollupSchool} as student_school_id, team_school_id as school_id, team_cohort_id as cohort_id
              from rollup_team_counts where teams > 0) ro_c
      join rollup_school_teams ro_t on ro_t.school_key = ro_c.school_key and ro_t.team_school_id = ro_c.school_id
                                    and ro_t.team_cohort_id = ro_c.cohort_id and ro_t.students > 0
      join student_rollup ro_r on ro_r.newest_team_id = ro_t.team_id and ro_r.school_key = ro_t.school_key
     where ${inScope("ro_c.student_school_id")} and not coalesce(${teamInScope(scope, "ro_c")}, false)`;
  const recounted = sql`select id from students where created_at >= ${at}
      union select student_id from student_cohorts where joined_at >= ${at}
      union select student_id from student_teams where joined_at >= ${at}
      ${hidden ? sql`union ${hidden}` : sql``}
      union ${newestTeamOutside}`;
  const { rows } = await sql<{ students: number | null; schools: number; cohorts: number; teams: number }>`
    with x as (${recounted}),
    -- What the recounted students add to the rollups now, to take out.
    xr as (select r.school_key, r.newest_team_id, r.cohort_ids from student_rollup r where r.student_id in (select id from x)),
    -- The recounted students as the scan counts them at the cutoff.
    d as (select s.id, s.school_id from students s
           where s.id in (select id from x) and s.created_at < ${at} and ${studentInScope(scope, "s")}),
    by_school as (
      select b.school_id, b.n from (
        select ${rollupSchool} as school_id, sum(n) as n from (
          select school_key, students as n from rollup_school_students
          union all select school_key, -1 from xr
          union all select coalesce(school_id, 0), 1 from d) y
         group by school_key) b
       where ${inScope("b.school_id")}),
    cohort_ids as (
      select p.cohort_id from (
        select ${rollupSchool} as school_id, cohort_id from (
          select school_key, cohort_id, students as n from rollup_school_cohorts
          union all select school_key, unnest(cohort_ids), -1 from xr) y
         group by school_key, cohort_id having sum(n) > 0) p
       where ${inScope("p.school_id")} and ${cohortVisible(scope, "p.cohort_id", "p.school_id")}
      union
      select sc.cohort_id from d join student_cohorts sc on sc.student_id = d.id
       where sc.joined_at < ${at} and ${cohortVisible(scope, "sc.cohort_id", "d.school_id")}),
    -- Teams: today's newest teams of the scope's students (newestTeamCount), less those that are
    -- only recounted students' newest, plus the recounted students' teams at the cutoff not
    -- already counted. Only the teams these few students touch are looked at one by one.
    d_teams as (
      select distinct cur.team_id from (
        select distinct on (st.student_id) st.team_id from d
          join student_teams st on st.student_id = d.id
          join teams t on t.id = st.team_id
         where ${teamInScope(scope, "t")} and st.joined_at < ${at}
         order by st.student_id, st.joined_at desc, st.team_id desc) cur),
    touched as (
      select tt.team_id,
             (select coalesce(sum(rt.students), 0) from (select ${rollupSchool} as school_id, students
                 from rollup_school_teams where team_id = tt.team_id) rt where ${inScope("rt.school_id")}) as now,
             (select count(*) from (select ${rollupSchool} as school_id from xr where newest_team_id = tt.team_id) xs
               where ${inScope("xs.school_id")}) as recounted
        from (select newest_team_id as team_id from xr where newest_team_id is not null union select team_id from d_teams) tt)
    select (select sum(n) from by_school) as students,
           (select count(*) from by_school where school_id is not null and n > 0) as schools,
           (select count(*) from cohort_ids) as cohorts,
           ${newestTeamCount(scope)}
             - (select count(*) from touched where now > 0 and now = recounted)
             + (select count(*) from d_teams join touched using (team_id) where touched.now = touched.recounted) as teams`.execute(db);
  const row = rows[0];
  return {
    schoolCount: Number(row?.schools ?? 0),
    studentCount: Number(row?.students ?? 0),
    cohortCount: Number(row?.cohorts ?? 0),
    teamCount: Number(row?.teams ?? 0),
  };
}

/** The summary counted from the students themselves: exact, slow at scale; the rollups' reference. */
export async function summarizeStudentsByScan(
  db: DbExecutor,
  scope: DataScope,
  filters: StudentFilters,
): Promise<{ schoolCount: number; studentCount: number; cohortCount: number; teamCount: number }> {
  const students = filteredStudents(db, scope, filters).select(["s.id", "s.school_id"]);
  const cohortFilter = filters.cohortId !== undefined ? sql`and sc.cohort_id = ${filters.cohortId}` : sql``;
  const row = await db
    .with("f", () => students)
    .selectNoFrom([
      sql<number>`(select count(*) from f)`.as("studentCount"),
      sql<number>`(select count(distinct f.school_id) from f)`.as("schoolCount"),
      sql<number>`(select count(distinct sc.cohort_id) from f join student_cohorts sc on sc.student_id = f.id
        where ${cohortVisible(scope, "sc.cohort_id", "f.school_id")} ${cohortFilter}
          ${joinedBefore("sc.joined_at", filters.before)})`.as("cohortCount"),
      currentTeamCount(scope, filters.before).as("teamCount"),
    ])
    .executeTakeFirstOrThrow();
  return {
    schoolCount: Number(row.schoolCount),
    studentCount: Number(row.studentCount),
    cohortCount: Number(row.cohortCount),
    teamCount: Number(row.teamCount),
  };
}

/** SQL: distinct current teams (newest membership among teams in scope) of the students in `f`. */
function currentTeamCount(scope: DataScope, before?: Date) {
  return sql<number>`(select count(distinct cur.team_id) from (
    select distinct on (st.student_id) st.team_id from f
      join student_teams st on st.student_id = f.id
      join teams t on t.id = st.team_id
     where ${teamInScope(scope, "t")} ${joinedBefore("st.joined_at", before)}
     order by st.student_id, st.joined_at desc, st.team_id desc) cur)`;
}

/** Distinct current teams of the filtered students, counted from the memberships. */
async function countCurrentTeams(db: DbExecutor, scope: DataScope, filters: StudentFilters): Promise<number> {
  const students = filteredStudents(db, scope, filters).select(["s.id", "s.school_id"]);
  const row = await db
    .with("f", () => students)
    .selectNoFrom([
      currentTeamCount(scope).as("teamCount"),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.teamCount);
}

