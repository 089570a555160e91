import type { DbExecutor } from "../../db/executor.js";
import { redactStudentEntries } from "./audit-erasure.repository.js";

/** Erasure (issue 32): call before recording the erasure itself, in the erasure's transaction. */
export function redactStudentChanges(db: DbExecutor, studentIds: readonly number[]): Promise<void> {
  return redactStudentEntries(db, studentIds);
}
