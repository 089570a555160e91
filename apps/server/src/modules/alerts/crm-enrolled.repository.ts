import { dayAfterWeek } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { inChunks } from "../../lib/in-chunks.js";
import type { CohortFacts } from "./rules/rule-facts.js";

/** The start of the day after the week's last day (UTC): "after the week ended" is from then on. */
export function weekEndedAt(cohortStart: string, week: number): Date {
  return new Date(`${dayAfterWeek(cohortStart, week)}T00:00:00Z`);
}

/**
 * Of `studentIds`, those whose CRM sessions of the cohort's latest week were still "Enrolled"
 * in an export read after that week ended (the missing-from-reports rule's CRM part). Each
 * student's newest flag import of the week that was not undone decides: a later export with
 * every session recorded clears an earlier one.
 */
export async function findCrmEnrolledAfterWeek(db: DbExecutor, cohort: CohortFacts, studentIds: readonly number[]): Promise<Set<number>> {
  if (cohort.latestWeek === null || studentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("crm_enrolled_sessions as c")
    .innerJoin("import_batches as b", "b.id", "c.batch_id")
    .distinctOn("c.student_id")
    .select(["c.student_id", "c.enrolled", "c.reported_at"])
    .where("c.cohort_id", "=", cohort.cohortId)
    .where("c.week_number", "=", cohort.latestWeek)
    .where("c.student_id", "in", studentIds)
    .where("b.undone_at", "is", null)
    .orderBy("c.student_id")
    .orderBy("c.batch_id", "desc")
    .execute();
  const ended = weekEndedAt(cohort.startDate, cohort.latestWeek).getTime();
  return new Set(rows.filter((r) => r.enrolled > 0 && new Date(r.reported_at).getTime() >= ended).map((r) => r.student_id));
}

/** One flag import's rows: each imported student's CRM sessions of the week still Enrolled (0 included). */
export async function insertCrmEnrolled(
  db: DbExecutor,
  batch: { batchId: number; cohortId: number; week: number; reportedAt: Date },
  enrolled: ReadonlyArray<readonly [studentId: number, sessions: number]>,
): Promise<void> {
  for (const slice of inChunks(enrolled, 1000)) {
    await db
      .insertInto("crm_enrolled_sessions")
      .values(
        slice.map(([studentId, sessions]) => ({
          batch_id: batch.batchId,
          student_id: studentId,
          cohort_id: batch.cohortId,
          week_number: batch.week,
          enrolled: sessions,
          reported_at: batch.reportedAt,
        })),
      )
      .execute();
  }
}
