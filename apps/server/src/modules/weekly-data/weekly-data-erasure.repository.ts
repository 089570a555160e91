import type { DbExecutor } from "../../db/executor.js";

/** Deletes the students' weekly rows (flags, reflections, advisor notes); the ids of the rows removed. */
export async function deleteWeeklyDataOf(db: DbExecutor, studentIds: readonly number[]): Promise<number[]> {
  if (studentIds.length === 0) return [];
  const rows = await db.deleteFrom("weekly_data").where("student_id", "in", studentIds).returning("id").execute();
  return rows.map((r) => r.id);
}
