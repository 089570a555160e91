import type { DbExecutor } from "../../db/executor.js";
import { deleteAttendanceOf } from "./attendance-erasure.repository.js";

/** Erasure (issue 32): pass the erasure's transaction. */
export function eraseAttendanceOf(db: DbExecutor, studentIds: readonly number[]): Promise<number> {
  return deleteAttendanceOf(db, studentIds);
}
