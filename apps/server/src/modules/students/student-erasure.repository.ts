import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

/** Locks the students' rows (an edit or an import of them waits); the ids that still exist. */
export async function lockStudents(db: DbExecutor, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("students").select("id").where("id", "in", ids).orderBy("id").forUpdate().execute();
  return rows.map((r) => r.id);
}

/** Names of the student's cohorts running on `today` (YYYY-MM-DD). */
export async function runningCohortsOf(db: DbExecutor, studentId: number, today: string): Promise<string[]> {
  const rows = await db
    .selectFrom("student_cohorts as sc")
    .innerJoin("cohorts as c", "c.id", "sc.cohort_id")
    .select("c.name")
    .where("sc.student_id", "=", studentId)
    .where("c.start_date", "<=", sql<string>`cast(${today} as date)`)
    .where("c.end_date", ">=", sql<string>`cast(${today} as date)`)
    .orderBy("c.name")
    .execute();
  return rows.map((r) => r.name);
}

/** Whether the cohort runs on `today`; undefined for an unknown cohort (a read of the cohorts table, as the lists' joins). */
export function findCohortRunning(db: DbExecutor, cohortId: number, today: string): Promise<{ running: boolean } | undefined> {
  return db
    .selectFrom("cohorts")
    .select(sql<boolean>`start_date <= cast(${today} as date) and end_date >= cast(${today} as date)`.as("running"))
    .where("id", "=", cohortId)
    .executeTakeFirst();
}

/** Up to `limit` ids of the cohort's students above `afterId`, in id order (the batches of a cohort's erasure). */
export async function cohortStudentIds(db: DbExecutor, cohortId: number, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("student_cohorts")
    .select("student_id")
    .where("cohort_id", "=", cohortId)
    .where("student_id", ">", afterId)
    .orderBy("student_id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.student_id);
}

/**
 * Deletes the students' memberships, then the students: each statement's rollup triggers
 * take them off the per-school, cohort and team counts. The rows removed of each.
 */
export async function deleteStudents(db: DbExecutor, ids: readonly number[]): Promise<{ students: number; cohorts: number; teams: number }> {
  if (ids.length === 0) return { students: 0, cohorts: 0, teams: 0 };
  const teams = await db.deleteFrom("student_teams").where("student_id", "in", ids).executeTakeFirst();
  const cohorts = await db.deleteFrom("student_cohorts").where("student_id", "in", ids).executeTakeFirst();
  const students = await db.deleteFrom("students").where("id", "in", ids).executeTakeFirst();
  return { students: Number(students.numDeletedRows), cohorts: Number(cohorts.numDeletedRows), teams: Number(teams.numDeletedRows) };
}

/** What retention removes: students with a cohort, whose last cohort ended before `cutoff`, outside `exceptSchoolId`. */
export interface ExpiredFilter {
  cutoff: string;
  exceptSchoolId: number | null;
}

function expired(db: DbExecutor, f: ExpiredFilter) {
  return db
    .selectFrom("students as s")
    .where((eb) => (f.exceptSchoolId === null ? eb.lit(true) : eb.or([eb("s.school_id", "is", null), eb("s.school_id", "<>", f.exceptSchoolId)])))
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("student_cohorts as sc").select("sc.student_id").whereRef("sc.student_id", "=", "s.id")),
    )
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom("student_cohorts as sc")
            .innerJoin("cohorts as c", "c.id", "sc.cohort_id")
            .select("sc.student_id")
            .whereRef("sc.student_id", "=", "s.id")
            .where("c.end_date", ">=", sql<string>`cast(${f.cutoff} as date)`),
        ),
      ),
    );
}

/** Up to `limit` ids of expired students above `afterId`, in id order (retention's batches). */
export async function expiredStudentIds(db: DbExecutor, f: ExpiredFilter, afterId: number, limit: number): Promise<number[]> {
  const rows = await expired(db, f).select("s.id").where("s.id", ">", afterId).orderBy("s.id").limit(limit).execute();
  return rows.map((r) => r.id);
}

/** How many students are expired, and up to `limit` of their names by last name (the preview). */
export async function expiredStudentNames(db: DbExecutor, f: ExpiredFilter, limit: number): Promise<{ students: number; names: string[] }> {
  const [count, rows] = await Promise.all([
    expired(db, f).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    expired(db, f).select(["s.first_name", "s.last_name"]).orderBy("s.last_name").orderBy("s.first_name").orderBy("s.id").limit(limit).execute(),
  ]);
  return { students: Number(count.n), names: rows.map((r) => `${r.first_name} ${r.last_name}`) };
}
