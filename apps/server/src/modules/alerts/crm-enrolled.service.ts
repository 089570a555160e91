import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./crm-enrolled.repository.js";

/**
 * What a flag import tells the missing-from-reports rule: how many of each imported student's
 * CRM sessions of the week were still Enrolled, and when the export was read. Pass the import's
 * transaction; every imported student gets a row (0 included: a later export in which every
 * session is recorded clears an earlier one). Undoing the batch needs nothing: undone batches
 * are skipped when read.
 */
export function recordCrmEnrolled(
  trx: DbExecutor,
  batch: { batchId: number; cohortId: number; week: number; reportedAt: Date },
  enrolled: ReadonlyArray<readonly [studentId: number, sessions: number]>,
): Promise<void> {
  return repo.insertCrmEnrolled(trx, batch, enrolled);
}
