import type { BenefitIdConflict } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { benefitIdHolders } from "../students/students-import.service.js";

/** A row of a run as far as its Benefit Assignment ID goes. */
interface RowWithId {
  studentId: number;
  name: string;
  benefit_assignment_id: string;
}

/**
 * The rows whose Benefit Assignment ID another student already holds: the import stores an ID
 * only for a student without one and never takes it from its holder, so these students are
 * left without it. Each is named with the holder, for a warning the coordinator can act on.
 */
export async function findBenefitIdConflicts(db: DbExecutor, rows: readonly RowWithId[]): Promise<BenefitIdConflict[]> {
  const holders = new Map((await benefitIdHolders(db, rows.map((r) => r.benefit_assignment_id))).map((h) => [h.benefit_assignment_id, h]));
  return rows.flatMap((row) => {
    const holder = holders.get(row.benefit_assignment_id);
    if (!holder || holder.id === row.studentId) return [];
    return [{ benefitAssignmentId: row.benefit_assignment_id, student: { id: row.studentId, name: row.name }, heldBy: { id: holder.id, name: holder.name } }];
  });
}
