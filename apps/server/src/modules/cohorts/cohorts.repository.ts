import { sql, type SqlBool } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { cohortVisible, type DataScope, schoolInScope, teamInScope } from "../scope/scope.js";

export interface CohortRow {
  id: number;
  name: string;
  program_type: string;
  start_date: string;
  end_date: string;
  total_expected_hours: number | null;
}

/**
 * Cohorts the scope may see, newest first. A cohort belongs to the schools of its teams and
 * students; with a school list it is shown when it is visible at one of them. An admin without
 * a school filter sees every cohort except the demo one.
 */
export async function listCohorts(
  db: DbExecutor,
  scope: DataScope,
  opts: { active?: { startsBy: string; endsFrom: string } } = {},
): Promise<CohortRow[]> {
  let query = db
    .selectFrom("cohorts as c")
    .select(["c.id", "c.name", "c.program_type", "c.start_date", "c.end_date", "c.total_expected_hours"]);
  if (scope.excludedCohortIds.length > 0) query = query.where("c.id", "not in", [...scope.excludedCohortIds]);
  // An admin looking at all schools also sees cohorts not yet used by any team or student.
  if (scope.schools !== "all" || scope.visibility !== null) {
    query = query.where(
      sql<SqlBool>`(c.id in (select t.cohort_id from teams t where ${teamInScope(scope, "t")})
        or c.id in (select sc.cohort_id from students s join student_cohorts sc on sc.student_id = s.id
          where ${schoolInScope(scope, "s.school_id", { nullable: true })}
            and ${cohortVisible(scope, "sc.cohort_id", "s.school_id")}))`,
    );
  }
  if (opts.active) {
    query = query.where("c.start_date", "<=", opts.active.startsBy).where("c.end_date", ">=", opts.active.endsFrom);
  }
  return query.orderBy("c.start_date", "desc").orderBy("c.id", "desc").execute();
}

export interface AdminCohortRow extends CohortRow {
  student_count: number;
}

/**
 * Every cohort with its number of students (the admin list), newest first; `ids` narrows it.
 * The count reads student_cohorts (owned by students) in the same query, as the README allows
 * for list reads.
 */
export async function listCohortsWithCounts(
  db: DbExecutor,
  opts: { excludeIds?: readonly number[]; ids?: readonly number[] } = {},
): Promise<AdminCohortRow[]> {
  let query = db
    .selectFrom("cohorts as c")
    .select([
      "c.id",
      "c.name",
      "c.program_type",
      "c.start_date",
      "c.end_date",
      "c.total_expected_hours",
      (eb) =>
        eb
          .selectFrom("student_cohorts as sc")
          .select((e) => e.fn.count<string | number>("sc.student_id").distinct().as("n"))
          .whereRef("sc.cohort_id", "=", "c.id")
          .as("student_count"),
    ]);
  if (opts.excludeIds && opts.excludeIds.length > 0) query = query.where("c.id", "not in", [...opts.excludeIds]);
  if (opts.ids) {
    if (opts.ids.length === 0) return [];
    query = query.where("c.id", "in", [...opts.ids]);
  }
  const rows = await query.orderBy("c.start_date", "desc").orderBy("c.id", "desc").execute();
  return rows.map((r) => ({ ...r, student_count: Number(r.student_count ?? 0) }));
}

export type CohortFields = Omit<CohortRow, "id">;

/** One cohort, locked for the rest of the transaction (an edit reads it, then writes it). */
export function findCohortForUpdate(db: DbExecutor, id: number): Promise<CohortRow | undefined> {
  return db
    .selectFrom("cohorts")
    .select(["id", "name", "program_type", "start_date", "end_date", "total_expected_hours"])
    .where("id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

export function insertCohort(db: DbExecutor, values: CohortFields & { at: Date }): Promise<CohortRow> {
  const { at, ...fields } = values;
  return db
    .insertInto("cohorts")
    .values({ ...fields, created_at: at })
    .returning(["id", "name", "program_type", "start_date", "end_date", "total_expected_hours"])
    .executeTakeFirstOrThrow();
}

export function updateCohort(db: DbExecutor, id: number, fields: Partial<CohortFields>): Promise<CohortRow> {
  return db
    .updateTable("cohorts")
    .set(fields)
    .where("id", "=", id)
    .returning(["id", "name", "program_type", "start_date", "end_date", "total_expected_hours"])
    .executeTakeFirstOrThrow();
}

/** Which of these cohort ids exist. */
export async function existingCohortIds(db: DbExecutor, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("cohorts").select("id").where("id", "in", [...ids]).execute();
  return rows.map((r) => r.id);
}
