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
