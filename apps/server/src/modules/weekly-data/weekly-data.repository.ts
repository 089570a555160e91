import type { Kysely, Transaction } from "kysely";
import type { Database, WeeklyFlag } from "../../db/schema.js";
import { cohortVisible, type DataScope } from "../scope/scope.js";

type Db = Kysely<Database> | Transaction<Database>;

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

/** A student's weekly rows in cohorts visible at the student's school, by cohort then week. */
export async function listWeeklyData(
  db: Db,
  scope: DataScope,
  studentId: number,
  filters: { cohortId?: number | undefined },
): Promise<WeeklyDataRow[]> {
  let query = db
    .selectFrom("weekly_data as w")
    .innerJoin("students as s", "s.id", "w.student_id")
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
    .where("w.student_id", "=", studentId)
    .where(cohortVisible(scope, "w.cohort_id", "s.school_id"));
  if (filters.cohortId !== undefined) query = query.where("w.cohort_id", "=", filters.cohortId);
  return query.orderBy("w.cohort_id").orderBy("w.week_number").execute();
}
