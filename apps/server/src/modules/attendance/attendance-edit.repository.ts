import type { DbExecutor } from "../../db/executor.js";
import type { AttendanceStatus } from "../../db/schema.js";
import { cohortVisible, type DataScope, schoolInScope, studentInScope } from "../scope/scope.js";
import type { StudentAttendanceRow } from "./attendance.repository.js";

/** The audit row's action; an import's undo reads it to find the records corrected since. */
export const ATTENDANCE_EDIT_ACTION = "attendance.updated";

export interface EditableAttendanceRow extends StudentAttendanceRow {
  student_id: number;
  school_id: number;
}

/**
 * The record, locked for the edit, when the scope sees it (its school, a cohort visible there, a
 * student in scope); undefined otherwise.
 */
export async function lockRecordInScope(db: DbExecutor, scope: DataScope, id: number): Promise<EditableAttendanceRow | undefined> {
  return db
    .selectFrom("attendance_records as a")
    .innerJoin("students as s", "s.id", "a.student_id")
    .select(["a.id", "a.student_id", "a.school_id", "a.cohort_id", "a.week_number", "a.date", "a.meeting_type", "a.status", "a.excused"])
    .where("a.id", "=", id)
    .where(schoolInScope(scope, "a.school_id"))
    .where(cohortVisible(scope, "a.cohort_id", "a.school_id"))
    .where(studentInScope(scope, "s", { single: true }))
    .forUpdate()
    .executeTakeFirst();
}

export async function setRecordStatus(db: DbExecutor, id: number, status: AttendanceStatus, excused: boolean, at: Date): Promise<void> {
  await db.updateTable("attendance_records").set({ status, excused, updated_at: at }).where("id", "=", id).execute();
}
