import type { StudentExportAlert } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { studentAlertsForExport } from "./alerts-export.repository.js";

/** The student's alerts for their own export; the caller has already been scoped to the student. */
export function studentAlerts(db: DbExecutor, studentId: number): Promise<StudentExportAlert[]> {
  return studentAlertsForExport(db, studentId);
}
