import type { DbExecutor } from "../../db/executor.js";
import type { WeeklyFlag } from "../../db/schema.js";
import { cohortVisible, type DataScope, studentInScope } from "../scope/scope.js";

export interface WeeklyDataRow {
  id: number;
  cohort_id: number;
  week_number: number;
  week_start: string | null;
  flags: WeeklyFlag[];
  reflection: string | null;
  advisor_notes: string | null;
  updated_at: Date;
  hours_reported: number | null;
}

/**
 * A student's weekly rows in cohorts visible at the student's school, by cohort then week;
 * undefined when the scope may not see the student (checked in the same query).
 */
export async function listWeeklyData(
  db: DbExecutor,
  scope: DataScope,
  studentId: number,
  filters: { cohortId?: number | undefined },
): Promise<WeeklyDataRow[] | undefined> {
  const rows = await db
    .selectFrom("students as s")
    .leftJoin("weekly_data as w", (join) => {
      const on = join.onRef("w.student_id", "=", "s.id").on(cohortVisible(scope, "w.cohort_id", "s.school_id"));
      return filters.cohortId === undefined ? on : on.on("w.cohort_id", "=", filters.cohortId);
    })
    .select([
      "w.id",
      "w.cohort_id",
      "w.week_number",
      "w.week_start",
      "w.flags",
      "w.reflection",
      "w.advisor_notes",
      "w.updated_at",
      "w.hours_reported",
    ])
    .where("s.id", "=", studentId)
    .where(studentInScope(scope, "s", { single: true }))
    .orderBy("w.cohort_id")
    .orderBy("w.week_number")
    .execute();
  if (rows.length === 0) return undefined;
  return rows.filter((r): r is WeeklyDataRow => r.id !== null);
}
