import type { DbExecutor } from "../../db/executor.js";

/**
 * The schools of the cohorts' members (students without a school left out: only admins see
 * them, and admins hear of every change). Who sees an alert follows its student's school.
 */
export async function findSchoolsOfCohorts(db: DbExecutor, cohortIds: readonly number[]): Promise<number[]> {
  if (cohortIds.length === 0) return [];
  const rows = await db
    .selectFrom("student_cohorts as sc")
    .innerJoin("students as s", "s.id", "sc.student_id")
    .select("s.school_id")
    .distinct()
    .where("sc.cohort_id", "in", cohortIds)
    .where("s.school_id", "is not", null)
    .execute();
  return rows.map((r) => r.school_id as number);
}
