import { type SelectQueryBuilder, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { pageAsOneText } from "../../db/json-rows.js";
import type { Database } from "../../db/schema.js";
import { cohortVisible, type DataScope, studentInScope, teamInScope } from "../scope/scope.js";
import { filteredStudents, hasFilters, type StudentFilters } from "./students-filter.repository.js";
import { shownStudentCounts } from "./students-summary.repository.js";

export interface StudentRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  school_id: number | null;
  school_name: string | null;
  benefit_assignment_id: string | null;
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

function selectStudentRow<QB extends SelectQueryBuilder<Database & { s: Database["students"] }, "s", object>>(query: QB) {
  return query
    .leftJoin("schools as sch", "sch.id", "s.school_id")
    .select(["s.id", "s.first_name", "s.last_name", "s.email", "s.school_id", "sch.name as school_name", "s.benefit_assignment_id"]);
}

export interface StudentListRow extends StudentRow {
  cohort_id: number | null;
  cohort_name: string | null;
  cohort_start_date: string | null;
  cohort_end_date: string | null;
  team_id: number | null;
  team_name: string | null;
  /** The newest week with weekly data in the current cohort, its flag count and attended share. */
  week_number: number | null;
  week_flags: number | null;
  week_attended: number | null;
  week_records: number | null;
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
    // The newest week of the current cohort with weekly data (unique key student, cohort,
    // week), then that week's meetings (index on student, cohort, date): a few probes a row.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("weekly_data as wd")
          .select(["wd.week_number", sql<number>`jsonb_array_length(wd.flags)`.as("flags")])
          .whereRef("wd.student_id", "=", "p.id")
          .whereRef("wd.cohort_id", "=", "cc.id")
          .orderBy("wd.week_number", "desc")
          .limit(sql.lit(1))
          .as("wk"),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("attendance_records as wa")
          .select([
            sql<number>`count(*) filter (where wa.status <> 'absent')`.as("attended"),
            sql<number>`count(*)`.as("records"),
          ])
          .whereRef("wa.student_id", "=", "p.id")
          .whereRef("wa.cohort_id", "=", "cc.id")
          .whereRef("wa.week_number", "=", "wk.week_number")
          .as("wa"),
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
      "wk.week_number",
      "wk.flags as week_flags",
      "wa.attended as week_attended",
      "wa.records as week_records",
    ]);
  const totalSql = hasFilters(filters)
    ? sql<number>`(${base.select((eb) => eb.fn.countAll<number>().as("total"))})`
    : sql<number>`(select students from (${shownStudentCounts(scope)}) shown)`;
  return pageAsOneText<StudentListRow>(db, totalSql, rowsQuery, sql`r.last_name, r.first_name, r.id`);
}

/** Ids of the students visible in the scope that match the filters and search. */
export async function filteredStudentIds(db: DbExecutor, scope: DataScope, filters: StudentFilters): Promise<Array<{ id: number }>> {
  return filteredStudents(db, scope, filters).select("s.id").execute();
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

/** The student other than `exceptId` who holds the Benefit Assignment ID, with their name. */
export async function findBenefitIdHolder(db: DbExecutor, benefitId: string, exceptId: number): Promise<{ id: number; name: string } | undefined> {
  return db
    .selectFrom("students")
    .select(["id", sql<string>`first_name || ' ' || last_name`.as("name")])
    .where("benefit_assignment_id", "=", benefitId)
    .where("id", "<>", exceptId)
    .executeTakeFirst();
}

export async function updateStudentFields(
  db: DbExecutor,
  id: number,
  fields: { first_name?: string; last_name?: string; email?: string | null; school_id?: number; benefit_assignment_id?: string | null },
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
