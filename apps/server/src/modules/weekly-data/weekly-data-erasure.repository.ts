import type { DbExecutor } from "../../db/executor.js";

/** Deletes the students' weekly rows (flags, reflections, advisor notes); the rows removed. */
export async function deleteWeeklyDataOf(db: DbExecutor, studentIds: readonly number[]): Promise<number> {
  if (studentIds.length === 0) return 0;
  const result = await db.deleteFrom("weekly_data").where("student_id", "in", studentIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}
