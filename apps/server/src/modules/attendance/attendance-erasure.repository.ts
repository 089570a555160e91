import type { DbExecutor } from "../../db/executor.js";

/** Deletes the students' attendance rows (the summary triggers take them off the counts); the rows removed. */
export async function deleteAttendanceOf(db: DbExecutor, studentIds: readonly number[]): Promise<number> {
  if (studentIds.length === 0) return 0;
  const result = await db.deleteFrom("attendance_records").where("student_id", "in", studentIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}
