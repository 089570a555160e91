import type { DbExecutor } from "../../db/executor.js";
import { forgetStudentsInBatches } from "./import-erasure.repository.js";

/** Erasure (issue 32): pass the erasure's transaction and the ids of the weekly rows it removes. */
export function forgetErasedStudents(db: DbExecutor, studentIds: readonly number[], weeklyIds: readonly number[]): Promise<void> {
  return forgetStudentsInBatches(db, studentIds, weeklyIds);
}
