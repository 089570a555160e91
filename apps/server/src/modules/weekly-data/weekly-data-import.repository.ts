import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { WeeklyFlag } from "../../db/schema.js";
import { deleteRowsById, runChunked } from "../../db/json-rows.js";

/** A weekly row as the import compares and undo restores it (timestamps as exact ISO text). */
export interface WeeklyValues {
  week_start: string | null;
  flags: WeeklyFlag[];
  reflection: string | null;
  advisor_notes: string | null;
  hours_reported: number | null;
}
export interface StoredWeeklyRow extends WeeklyValues {
  id: number;
  student_id: number;
  updated_at: string;
}

export async function findWeekRows(
  db: DbExecutor,
  cohortId: number,
  weekNumber: number,
  studentIds: readonly number[],
): Promise<StoredWeeklyRow[]> {
  if (studentIds.length === 0) return [];
  return runChunked(
    db,
    studentIds,
    (chunk) => sql<StoredWeeklyRow>`select w.id, w.student_id, to_char(w.week_start, 'YYYY-MM-DD') as week_start,
        w.flags, w.reflection, w.advisor_notes, w.hours_reported, to_json(w.updated_at)#>>'{}' as updated_at
      from json_array_elements_text(${chunk}) x
      join weekly_data w on w.student_id = x.value::int and w.cohort_id = ${cohortId} and w.week_number = ${weekNumber}`,
    5000,
  );
}

export interface NewWeeklyRow extends WeeklyValues {
  student_id: number;
  cohort_id: number;
  week_number: number;
}

const RECORD = sql`x(id int, student_id int, cohort_id int, week_number int, week_start date, flags jsonb,
  reflection text, advisor_notes text, hours_reported double precision, updated_at timestamptz)`;

export async function insertWeeklyRows(db: DbExecutor, rows: readonly NewWeeklyRow[], at: Date): Promise<number[]> {
  const inserted = await runChunked(
    db,
    rows,
    (chunk) => sql<{ id: number }>`insert into weekly_data
        (student_id, cohort_id, week_number, week_start, flags, reflection, advisor_notes, hours_reported, created_at, updated_at)
      select student_id, cohort_id, week_number, week_start, flags, reflection, advisor_notes, hours_reported, ${at}, ${at}
        from json_to_recordset(${chunk}) as ${RECORD}
      returning id`,
  );
  return inserted.map((r) => r.id);
}

/** Writes the values and updated_at of existing rows: the import's updates and undo's restores. */
export async function setWeeklyValues(db: DbExecutor, rows: ReadonlyArray<WeeklyValues & { id: number; updated_at: string }>): Promise<void> {
  await runChunked(
    db,
    rows,
    (chunk) => sql`update weekly_data w set week_start = x.week_start, flags = x.flags, reflection = x.reflection,
        advisor_notes = x.advisor_notes, hours_reported = x.hours_reported, updated_at = x.updated_at
      from json_to_recordset(${chunk}) as ${RECORD} where w.id = x.id`,
  );
}

export const deleteWeeklyRows = (db: DbExecutor, ids: readonly number[]) => deleteRowsById(db, "weekly_data", ids);
