import { type RawBuilder, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { ImportChanges } from "../../db/schema.js";
import { jsonRows } from "../../db/json-rows.js";
import type { KnownStudent, KnownTeam, NamedRef } from "./roster-matching.js";

export { lockImports } from "../../db/import-lock.js";

/**
 * What a plan depends on besides the files: any batch written or undone since, and any write
 * to the tables it was made from (migration 015's data version). Read before planning, and
 * again under the lock before a plan is written.
 */
export async function readFingerprint(db: DbExecutor, cohortId: number | null): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`select concat_ws('|',
      (select coalesce(max(id), 0) from import_batches),
      (select count(undone_at) from import_batches),
      (select count(*) from student_cohorts where cohort_id = ${cohortId ?? 0}),
      (select count(*) from teams where cohort_id = ${cohortId ?? 0}),
      (select last_value || ':' || is_called from data_version)) as fingerprint`.execute(db);
  return rows[0]?.fingerprint ?? "";
}

/** A page of looked-up students: small enough to pass on to the import's worker at once. */
export const KNOWN_STUDENTS_PAGE = 5_000;

/**
 * The students `wanted` names (a query of ids), with whether they are in the cohort and their
 * newest team there. Set-based: one pass over the cohort's teams rather than a subquery per
 * student (a week is tens of thousands of students).
 */
async function knownStudents(db: DbExecutor, cohortId: number | null, wanted: RawBuilder<unknown>): Promise<KnownStudent[]> {
  const cohort = cohortId ?? 0;
  const { rows } = await sql<KnownStudent>`with wanted as (${wanted}), newest_team as (
      select distinct on (st.student_id) st.student_id, st.team_id
        from teams t join student_teams st on st.team_id = t.id
       where t.cohort_id = ${cohort} and st.student_id in (select id from wanted)
       order by st.student_id, st.joined_at desc, st.team_id desc
    )
    select s.id, s.first_name, s.last_name, s.email, s.school_id,
           exists (select 1 from student_cohorts m where m.cohort_id = ${cohort} and m.student_id = s.id) as in_cohort,
           nt.team_id
      from wanted w
      join students s on s.id = w.id
      left join newest_team nt on nt.student_id = s.id
     order by s.id`.execute(db);
  return rows;
}

/** One page of the cohort's members, after the member id `afterId` (KNOWN_STUDENTS_PAGE at most). */
export function findCohortMembersPage(db: DbExecutor, cohortId: number | null, afterId: number): Promise<KnownStudent[]> {
  return knownStudents(
    db,
    cohortId,
    sql`select student_id as id from student_cohorts where cohort_id = ${cohortId ?? 0} and student_id > ${afterId}
         order by student_id limit ${KNOWN_STUDENTS_PAGE}`,
  );
}

/** Students with one of these e-mails (lower case) or ids, whatever their cohort. */
export function findStudentsByKeys(db: DbExecutor, cohortId: number | null, emails: readonly string[], ids: readonly number[]): Promise<KnownStudent[]> {
  return knownStudents(
    db,
    cohortId,
    sql`select s.id from json_array_elements_text(${jsonRows(emails)}) e join students s on lower(s.email) = e.value
        union
        select value::int from json_array_elements_text(${jsonRows(ids)})`,
  );
}

export function listSchoolNames(db: DbExecutor): Promise<NamedRef[]> {
  return db.selectFrom("schools").select(["id", "name"]).execute();
}

export function listCohortTeams(db: DbExecutor, cohortId: number | null): Promise<KnownTeam[]> {
  return db
    .selectFrom("teams")
    .select(["id", "name", "school_id"])
    .where("cohort_id", "=", cohortId ?? 0)
    .execute();
}

export interface NewBatch {
  userId: number;
  cohortId: number;
  weekNumber: number;
  files: Array<{ field: string; name: string; size: number; sha256: string }>;
  summary: Record<string, number>;
  createdCohort: boolean;
  changes: ImportChanges;
  at: Date;
  kind?: "weekly" | "flags";
}

export async function insertBatch(db: DbExecutor, batch: NewBatch): Promise<number> {
  const row = await db
    .insertInto("import_batches")
    .values({
      created_at: batch.at,
      user_id: batch.userId,
      cohort_id: batch.cohortId,
      week_number: batch.weekNumber,
      files: JSON.stringify(batch.files),
      summary: JSON.stringify(batch.summary),
      created_cohort: batch.createdCohort,
      changes: JSON.stringify(batch.changes),
      kind: batch.kind ?? "weekly",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface BatchListRow {
  id: number;
  created_at: Date;
  user_name: string | null;
  cohort_id: number;
  cohort_name: string | null;
  week_number: number;
  files: Array<{ field: string; name: string; size: number; sha256: string }>;
  summary: Record<string, number>;
  created_cohort: boolean;
  undone_at: Date | null;
  newest_open: boolean;
  kind: "weekly" | "flags";
}

/** Batches newest first, each with whether it is its cohort's newest batch still in force. */
export function listBatches(db: DbExecutor, filter: { cohortId?: number | undefined; limit: number }): Promise<BatchListRow[]> {
  let query = db
    .selectFrom("import_batches as b")
    .leftJoin("users as u", "u.id", "b.user_id")
    .leftJoin("cohorts as c", "c.id", "b.cohort_id")
    .select([
      "b.id",
      "b.created_at",
      "u.username as user_name",
      "b.cohort_id",
      "c.name as cohort_name",
      "b.week_number",
      "b.files",
      "b.summary",
      "b.created_cohort",
      "b.undone_at",
      "b.kind",
      sql<boolean>`b.undone_at is null and not exists (select 1 from import_batches n
        where n.cohort_id = b.cohort_id and n.id > b.id and n.undone_at is null)`.as("newest_open"),
    ])
    .orderBy("b.id", "desc")
    .limit(filter.limit);
  if (filter.cohortId !== undefined) query = query.where("b.cohort_id", "=", filter.cohortId);
  return query.execute();
}

/** The newest weekly import of a cohort's week still in force: when, and by whom. */
export function findLastWeekImport(db: DbExecutor, cohortId: number, week: number): Promise<{ created_at: Date; user_name: string | null } | undefined> {
  return db
    .selectFrom("import_batches as b")
    .leftJoin("users as u", "u.id", "b.user_id")
    .select(["b.created_at", "u.username as user_name"])
    .where("b.cohort_id", "=", cohortId)
    .where("b.week_number", "=", week)
    .where("b.kind", "=", "weekly")
    .where("b.undone_at", "is", null)
    .orderBy("b.id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export interface BatchForUndo {
  id: number;
  cohort_id: number;
  cohort_name: string | null;
  week_number: number;
  created_at: Date;
  undone_at: Date | null;
  changes: ImportChanges;
  has_newer: boolean;
}

export async function findBatchForUndo(db: DbExecutor, id: number): Promise<BatchForUndo | undefined> {
  return db
    .selectFrom("import_batches as b")
    .leftJoin("cohorts as c", "c.id", "b.cohort_id")
    .select([
      "b.id",
      "b.cohort_id",
      "c.name as cohort_name",
      "b.week_number",
      "b.created_at",
      "b.undone_at",
      "b.changes",
      sql<boolean>`exists (select 1 from import_batches n where n.cohort_id = b.cohort_id and n.id > b.id and n.undone_at is null)`.as(
        "has_newer",
      ),
    ])
    .where("b.id", "=", id)
    .executeTakeFirst();
}

export async function markUndone(db: DbExecutor, id: number, userId: number, at: Date): Promise<void> {
  await db.updateTable("import_batches").set({ undone_at: at, undone_by: userId }).where("id", "=", id).execute();
}

const IMPORT_TABLES = [
  "students",
  "student_cohorts",
  "student_teams",
  "teams",
  "attendance_records",
  "weekly_data",
  "student_rollup",
  "rollup_school_students",
  "rollup_school_cohorts",
  "rollup_school_teams",
  "attendance_summary",
  "attendance_school_summary",
] as const;

/**
 * Fresh planner statistics after a large write: the embedded engine has no autovacuum. A
 * statement per table: the embedded engine runs one statement at a time, and other people's
 * requests waiting for it go between two tables instead of after all twelve (0.9 s).
 */
export async function analyzeImportTables(db: DbExecutor): Promise<void> {
  for (const table of IMPORT_TABLES) await sql`analyze ${sql.table(table)}`.execute(db);
}

/**
 * Leaves out (or brings back) PostgreSQL's per-row foreign key checks for the rest of the
 * transaction, through session_replication_role (Tally's own triggers fire in either role:
 * migration 016). Only for the embedded engine: its one session is a superuser's, and no other
 * session exists whose deletes the per-row checks' row locks would hold off.
 */
export async function setRowReferenceChecks(db: DbExecutor, on: boolean): Promise<void> {
  await sql`select set_config('session_replication_role', ${on ? "origin" : "replica"}, true)`.execute(db);
}

export interface ReferencedIds {
  students: readonly number[];
  schools: readonly number[];
  teams: readonly number[];
  cohorts: readonly number[];
}

/** Which of the referenced ids name no row: the foreign key checks' work, once per id. */
export async function findMissingReferences(db: DbExecutor, ids: ReferencedIds): Promise<Array<{ kind: keyof ReferencedIds; id: number }>> {
  const { rows } = await sql<{ kind: keyof ReferencedIds; id: number }>`
    select 'students' as kind, x.value::int as id from json_array_elements_text(${jsonRows(ids.students)}) x
      where not exists (select 1 from students where id = x.value::int)
    union all select 'schools', x.value::int from json_array_elements_text(${jsonRows(ids.schools)}) x
      where not exists (select 1 from schools where id = x.value::int)
    union all select 'teams', x.value::int from json_array_elements_text(${jsonRows(ids.teams)}) x
      where not exists (select 1 from teams where id = x.value::int)
    union all select 'cohorts', x.value::int from json_array_elements_text(${jsonRows(ids.cohorts)}) x
      where not exists (select 1 from cohorts where id = x.value::int)`.execute(db);
  return rows;
}
