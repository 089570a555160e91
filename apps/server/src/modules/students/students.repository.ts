import { type SelectQueryBuilder, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { Database } from "../../db/schema.js";
import {
  cohortVisible,
  type DataScope,
  hiddenStudentsInScope,
  schoolInScope,
  studentInScope,
  teamInScope,
} from "../scope/scope.js";

export interface StudentFilters {
  cohortId?: number | undefined;
  /** Students whose current (newest, in scope) team is this one. */
  teamId?: number | undefined;
  q?: string | undefined;
}

export interface StudentRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  school_id: number | null;
  school_name: string | null;
}

export interface StudentCohortRow {
  student_id: number;
  id: number;
  name: string;
  start_date: string;
  end_date: string;
}

export interface StudentTeamRow {
  student_id: number;
  id: number;
  name: string;
  cohort_id: number;
  organization_description: string | null;
  project_description: string | null;
  start_date: string | null;
  joined_at: Date;
}

/** `%text%` for ilike, with the pattern characters taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL: the id of the student's current team: the newest membership among teams in scope. */
function currentTeamId(scope: DataScope, studentColumn: string) {
  return sql<number | null>`(select cur_st.team_id from student_teams cur_st join teams cur_t on cur_t.id = cur_st.team_id
     where cur_st.student_id = ${sql.ref(studentColumn)} and ${teamInScope(scope, "cur_t")}
     order by cur_st.joined_at desc, cur_st.team_id desc limit 1)`;
}

/** Students visible in the scope and matching the filters, as `s`. */
function filteredStudents(db: DbExecutor, scope: DataScope, filters: StudentFilters) {
  let query = db.selectFrom("students as s").where(studentInScope(scope, "s"));
  if (filters.cohortId !== undefined) {
    const cohortId = filters.cohortId;
    query = query.where(
      sql<boolean>`exists (select 1 from student_cohorts f_sc where f_sc.student_id = s.id
        and f_sc.cohort_id = ${cohortId} and ${cohortVisible(scope, "f_sc.cohort_id", "s.school_id")})`,
    );
  }
  if (filters.teamId !== undefined) {
    const teamId = filters.teamId;
    // Members of the team first (index on team_id), then keep those for whom it is current.
    query = query
      .where(sql<boolean>`s.id in (select f_st.student_id from student_teams f_st where f_st.team_id = ${teamId})`)
      .where(sql<boolean>`${currentTeamId(scope, "s.id")} = ${teamId}`);
  }
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    // Schools, cohorts and teams are few: each match set is built once, not per student.
    query = query.where(
      sql<boolean>`((s.first_name || ' ' || s.last_name) ilike ${pattern}
        or (s.last_name || ' ' || s.first_name) ilike ${pattern}
        or s.school_id in (select q_sch.id from schools q_sch where q_sch.name ilike ${pattern})
        or s.id in (select q_sc.student_id from student_cohorts q_sc
              join cohorts q_c on q_c.id = q_sc.cohort_id
              join students q_s on q_s.id = q_sc.student_id
             where q_c.name ilike ${pattern} and ${cohortVisible(scope, "q_sc.cohort_id", "q_s.school_id")})
        or s.id in (select q_st.student_id from student_teams q_st join teams q_t on q_t.id = q_st.team_id
             where q_t.name ilike ${pattern} and ${teamInScope(scope, "q_t")}))`,
    );
  }
  return query;
}

function selectStudentRow<QB extends SelectQueryBuilder<Database & { s: Database["students"] }, "s", object>>(query: QB) {
  return query
    .leftJoin("schools as sch", "sch.id", "s.school_id")
    .select(["s.id", "s.first_name", "s.last_name", "s.email", "s.school_id", "sch.name as school_name"]);
}

export interface StudentListRow extends StudentRow {
  cohort_id: number | null;
  cohort_name: string | null;
  cohort_start_date: string | null;
  cohort_end_date: string | null;
  team_id: number | null;
  team_name: string | null;
}

/**
 * One page of students (by last name, first name, id) with the current cohort (newest
 * start_date among visible ones) and current team, and the total.
 */
export async function listStudents(
  db: DbExecutor,
  scope: DataScope,
  filters: StudentFilters,
  page: { offset: number; limit: number },
): Promise<{ rows: StudentListRow[]; total: number }> {
  const base = filteredStudents(db, scope, filters);
  const pageQuery = base
    .select(["s.id", "s.first_name", "s.last_name", "s.email", "s.school_id"])
    .orderBy("s.last_name")
    .orderBy("s.first_name")
    .orderBy("s.id")
    // Literals, not parameters: with the values in the text, the embedded engine's statement
    // cache can keep one plan per page; a parameterised limit makes PostgreSQL plan each time.
    .offset(sql.lit(Math.trunc(page.offset)))
    .limit(sql.lit(Math.trunc(page.limit)));
  const rowsQuery = db
    .with("p", () => pageQuery)
    .selectFrom("p")
    .leftJoin("schools as sch", "sch.id", "p.school_id")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("student_cohorts as sc")
          .innerJoin("cohorts as c", "c.id", "sc.cohort_id")
          .select(["c.id", "c.name", "c.start_date", "c.end_date"])
          .whereRef("sc.student_id", "=", "p.id")
          .where(cohortVisible(scope, "sc.cohort_id", "p.school_id"))
          .orderBy("c.start_date", "desc")
          .orderBy("c.id", "desc")
          .limit(sql.lit(1))
          .as("cc"),
      (join) => join.onTrue(),
    )
    // Lateral, so each of the page's students costs two index probes; joining teams on the
    // subquery's result would read every team into a hash first.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("student_teams as cst")
          .innerJoin("teams as ct", "ct.id", "cst.team_id")
          .select(["ct.id", "ct.name"])
          .whereRef("cst.student_id", "=", "p.id")
          .where(teamInScope(scope, "ct"))
          .orderBy("cst.joined_at", "desc")
          .orderBy("cst.team_id", "desc")
          .limit(sql.lit(1))
          .as("tm"),
      (join) => join.onTrue(),
    )
    .select([
      "p.id",
      "p.first_name",
      "p.last_name",
      "p.email",
      "p.school_id",
      "sch.name as school_name",
      "cc.id as cohort_id",
      "cc.name as cohort_name",
      "cc.start_date as cohort_start_date",
      "cc.end_date as cohort_end_date",
      "tm.id as team_id",
      "tm.name as team_name",
    ]);
  const totalSql = hasFilters(filters)
    ? sql<number>`(${base.select((eb) => eb.fn.countAll<number>().as("total"))})`
    : sql<number>`(select students from (${shownStudentCounts(scope)}) shown)`;
  // The page travels as one JSON text with the total beside it: the embedded engine hands
  // one value across instead of decoding and copying every column of every row, and a page
  // past the end still carries the total.
  const { rows } = await sql<{ page: string }>`
    select json_build_object(
      'total', ${totalSql},
      'rows', coalesce((select json_agg(r order by r.last_name, r.first_name, r.id) from (${rowsQuery}) r), '[]'::json)
    )::text as page`.execute(db);
  const result = JSON.parse(rows[0]?.page ?? "{}") as { total?: number | null; rows?: StudentListRow[] };
  return { rows: result.rows ?? [], total: Number(result.total ?? 0) };
}

function hasFilters(filters: StudentFilters): boolean {
  return filters.cohortId !== undefined || filters.teamId !== undefined || Boolean(filters.q);
}

/** The rollup's school column as students.school_id has it (null for none). */
const rollupSchool = sql<number | null>`nullif(school_key, 0)`;

/**
 * SQL (one row: students, schools, hidden): the students studentInScope shows and their
 * distinct schools, from the trigger-maintained per-school counts minus the few students
 * whose cohorts are all hidden: exact, without counting 50,000 rows. hidden > 0 tells the
 * caller that such students exist.
 */
function shownStudentCounts(scope: DataScope) {
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

/**
 * Summary counts without filters, from the rollups. A cohort counts when some student of a
 * school in scope belongs to it and it is visible there (students left out as all-hidden
 * have no visible cohort, so they never add one). Teams: each student's newest team, which
 * is the current team in scope unless it lies outside the scope; when any student of the
 * scope has such a team, or all-hidden students exist, teamCount is undefined and the caller
 * counts exactly from the memberships.
 */
async function summarizeFromRollups(
  db: DbExecutor,
  scope: DataScope,
): Promise<{ schoolCount: number; studentCount: number; cohortCount: number; teamCount: number | undefined }> {
  const cohorts = sql<number>`(select count(distinct rc.cohort_id) from
      (select ${rollupSchool} as school_id, cohort_id from rollup_school_cohorts where students > 0) rc
     where ${schoolInScope(scope, "rc.school_id", { nullable: true })} and ${cohortVisible(scope, "rc.cohort_id", "rc.school_id")})`;
  // Teams from rollup_team_counts, a few hundred rows. Its sum counts a team once per
  // students' school, exact unless some team spreads over two schools: then count distinct
  // teams from rollup_school_teams instead (a subquery PostgreSQL runs only when asked).
  // Either count is used only when no counted team lies outside the scope (`outside`), so
  // neither needs to ask whether a team is shown.
  const counted = sql`(select ${rollupSchool} as student_school_id, team_school_id as school_id, team_cohort_id as cohort_id, teams
      from rollup_team_counts where teams > 0) tc where ${schoolInScope(scope, "tc.student_school_id", { nullable: true })}`;
  const teamsSummed = sql<number>`(select coalesce(sum(tc.teams), 0) from ${counted})`;
  const teamsOutside = sql<boolean>`(select coalesce(bool_or(not coalesce(${teamInScope(scope, "tc")}, false)), false) from ${counted})`;
  const teamsDistinct = sql<number>`(select count(distinct rt.team_id) from
      (select ${rollupSchool} as school_id, team_id from rollup_school_teams where students > 0) rt
     where ${schoolInScope(scope, "rt.school_id", { nullable: true })})`;
  const spread = sql<boolean>`exists (select 1 from rollup_team_spread where school_keys > 1)`;
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
           case when ${spread} then ${teamsDistinct} else ${teamsSummed} end as teams,
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
  if (!hasFilters(filters)) {
    const quick = await summarizeFromRollups(db, scope);
    if (quick.teamCount !== undefined) return { ...quick, teamCount: quick.teamCount };
    return { ...quick, teamCount: await countCurrentTeams(db, scope, filters) };
  }
  return summarizeStudentsByScan(db, scope, filters);
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
        where ${cohortVisible(scope, "sc.cohort_id", "f.school_id")} ${cohortFilter})`.as("cohortCount"),
      currentTeamCount(scope).as("teamCount"),
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
function currentTeamCount(scope: DataScope) {
  return sql<number>`(select count(distinct cur.team_id) from (
    select distinct on (st.student_id) st.team_id from f
      join student_teams st on st.student_id = f.id
      join teams t on t.id = st.team_id
     where ${teamInScope(scope, "t")}
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

/** A student the scope may see, or undefined (absent and out of scope look the same). */
export async function findStudentInScope(db: DbExecutor, scope: DataScope, id: number): Promise<StudentRow | undefined> {
  return selectStudentRow(db.selectFrom("students as s").where("s.id", "=", id).where(studentInScope(scope, "s", { single: true })))
    .executeTakeFirst();
}

export interface StudentWithMemberships extends StudentRow {
  /** Visible cohorts, newest start_date first. */
  cohorts: Array<Omit<StudentCohortRow, "student_id">>;
  /** Team memberships in scope, newest joined_at first (joined_at as JSON gives it: text). */
  teams: Array<Omit<StudentTeamRow, "student_id" | "joined_at"> & { joined_at: string }>;
}

/** findStudentInScope plus listStudentCohorts and listStudentTeams for it, in one query. */
export async function findStudentWithMemberships(
  db: DbExecutor,
  scope: DataScope,
  id: number,
): Promise<StudentWithMemberships | undefined> {
  return selectStudentRow(db.selectFrom("students as s").where("s.id", "=", id).where(studentInScope(scope, "s", { single: true })))
    .select([
      sql<StudentWithMemberships["cohorts"]>`coalesce((
        select json_agg(json_build_object('id', c.id, 'name', c.name, 'start_date', c.start_date, 'end_date', c.end_date)
                        order by c.start_date desc, c.id desc)
          from student_cohorts sc join cohorts c on c.id = sc.cohort_id
         where sc.student_id = s.id and ${cohortVisible(scope, "sc.cohort_id", "s.school_id")}), '[]')`.as("cohorts"),
      sql<StudentWithMemberships["teams"]>`coalesce((
        select json_agg(json_build_object('id', t.id, 'name', t.name, 'cohort_id', t.cohort_id,
                          'organization_description', t.organization_description, 'project_description', t.project_description,
                          'start_date', t.start_date, 'joined_at', st.joined_at)
                        order by st.joined_at desc, st.team_id desc)
          from student_teams st join teams t on t.id = st.team_id
         where st.student_id = s.id and ${teamInScope(scope, "t")}), '[]')`.as("teams"),
    ])
    .executeTakeFirst();
}

/** Visible cohorts of the students, newest start_date first. */
export async function listStudentCohorts(db: DbExecutor, scope: DataScope, studentIds: readonly number[]): Promise<StudentCohortRow[]> {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom("student_cohorts as sc")
    .innerJoin("students as s", "s.id", "sc.student_id")
    .innerJoin("cohorts as c", "c.id", "sc.cohort_id")
    .where("sc.student_id", "in", studentIds)
    .where(cohortVisible(scope, "sc.cohort_id", "s.school_id"))
    .select(["sc.student_id", "c.id", "c.name", "c.start_date", "c.end_date"])
    .orderBy("sc.student_id")
    .orderBy("c.start_date", "desc")
    .orderBy("c.id", "desc")
    .execute();
}

/** Team memberships in scope, newest joined_at first (the first per student is the active team). */
export async function listStudentTeams(db: DbExecutor, scope: DataScope, studentIds: readonly number[]): Promise<StudentTeamRow[]> {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom("student_teams as st")
    .innerJoin("teams as t", "t.id", "st.team_id")
    .where("st.student_id", "in", studentIds)
    .where(teamInScope(scope, "t"))
    .select([
      "st.student_id",
      "t.id",
      "t.name",
      "t.cohort_id",
      "t.organization_description",
      "t.project_description",
      "t.start_date",
      "st.joined_at",
    ])
    .orderBy("st.student_id")
    .orderBy("st.joined_at", "desc")
    .orderBy("st.team_id", "desc")
    .execute();
}

// ---- editing ----

/** Locks the student's row until the transaction ends; false when there is no such student. */
export async function lockStudent(db: DbExecutor, id: number): Promise<boolean> {
  const row = await db.selectFrom("students").select("id").where("id", "=", id).forUpdate().executeTakeFirst();
  return row !== undefined;
}

export async function findEmailOwner(db: DbExecutor, email: string, exceptId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom("students")
    .select("id")
    .where(sql<boolean>`lower(email) = lower(${email})`)
    .where("id", "<>", exceptId)
    .executeTakeFirst();
  return row?.id;
}

export async function updateStudentFields(
  db: DbExecutor,
  id: number,
  fields: { first_name?: string; last_name?: string; email?: string | null; school_id?: number },
  now: Date,
): Promise<void> {
  await db
    .updateTable("students")
    .set({ ...fields, updated_at: now })
    .where("id", "=", id)
    .execute();
}

/** Makes the team the student's newest membership; earlier ones stay as history. */
export async function joinTeam(db: DbExecutor, studentId: number, teamId: number, now: Date): Promise<void> {
  await db
    .insertInto("student_teams")
    .values({ student_id: studentId, team_id: teamId, joined_at: now })
    .onConflict((oc) => oc.columns(["student_id", "team_id"]).doUpdateSet({ joined_at: now }))
    .execute();
}
