import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { deleteRowsById, jsonRows, runChunked } from "../../db/json-rows.js";

export interface AttendanceKeyRow {
  id: number;
  student_id: number;
  date: string;
  meeting_type: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  excused: boolean;
  updated_at: string;
}

/** The records the import may meet: these students on these dates (the unique key's columns). */
export async function findAttendanceOn(
  db: DbExecutor,
  studentIds: readonly number[],
  dates: readonly string[],
): Promise<AttendanceKeyRow[]> {
  if (studentIds.length === 0 || dates.length === 0) return [];
  return runChunked(
    db,
    studentIds,
    (chunk) => sql<AttendanceKeyRow>`select a.id, a.student_id, to_char(a.date, 'YYYY-MM-DD') as date,
        a.meeting_type, a.status, a.excused, to_json(a.updated_at)#>>'{}' as updated_at
      from json_array_elements_text(${chunk}) x
      join attendance_records a on a.student_id = x.value::int
      where a.date in (select value::date from json_array_elements_text(${jsonRows(dates)}))`,
    5000,
  );
}

export interface NewAttendanceRow {
  student_id: number;
  cohort_id: number;
  school_id: number;
  team_id: number;
  week_number: number;
  date: string;
  meeting_type: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  excused: boolean;
}

/** Inserts the rows and returns their ids. */
export async function insertAttendance(db: DbExecutor, rows: readonly NewAttendanceRow[], at: Date): Promise<number[]> {
  const inserted = await runChunked(
    db,
    rows,
    (chunk) => sql<{ id: number }>`insert into attendance_records
        (student_id, cohort_id, school_id, team_id, week_number, date, meeting_type, status, excused, created_at, updated_at)
      select student_id, cohort_id, school_id, team_id, week_number, date, meeting_type, status, excused, ${at}, ${at}
        from json_to_recordset(${chunk}) as x(student_id int, cohort_id int, school_id int, team_id int,
          week_number int, date date, meeting_type text, status text, excused boolean)
      returning id`,
  );
  return inserted.map((r) => r.id);
}

/**
 * Sets each record's status, updated_at and excused ([id, status, updated_at, excused]): the
 * import's updates and undo's restores. A batch from before migration 025 kept no excused: its
 * records were all not excused then.
 */
export async function setAttendanceStatuses(
  db: DbExecutor,
  rows: ReadonlyArray<readonly [number, string, string, boolean?]>,
): Promise<void> {
  await runChunked(
    db,
    rows,
    (chunk) => sql`update attendance_records a set status = (x->>1), updated_at = (x->>2)::timestamptz,
        excused = coalesce((x->>3)::boolean, false)
      from json_array_elements(${chunk}) x where a.id = (x->>0)::int`,
  );
}

export const deleteAttendance = (db: DbExecutor, ids: readonly number[]) => deleteRowsById(db, "attendance_records", ids);
