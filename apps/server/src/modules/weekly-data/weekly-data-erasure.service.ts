import type { DbExecutor } from "../../db/executor.js";
import { deleteWeeklyDataOf } from "./weekly-data-erasure.repository.js";

/** Erasure (issue 32): pass the erasure's transaction; the ids of the rows removed. */
export function eraseWeeklyDataOf(db: DbExecutor, studentIds: readonly number[]): Promise<number[]> {
  return deleteWeeklyDataOf(db, studentIds);
}
