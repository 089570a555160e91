import type { WeeklyDataItem } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { notFound } from "../../lib/errors.js";
import { resolveStudentReadScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./weekly-data.repository.js";

export async function getWeeklyData(
  db: DbExecutor,
  user: ScopeSubject,
  studentId: number,
  filters: { cohortId?: number | undefined },
): Promise<WeeklyDataItem[]> {
  const scope = await resolveStudentReadScope(db, user);
  const rows = await repo.listWeeklyData(db, scope, studentId, filters);
  // Absent and out of scope look the same.
  if (!rows) throw notFound();
  return rows.map(({ hours_reported, updated_at, flags, ...rest }) => ({
    ...rest,
    flags: Array.isArray(flags) ? flags : [],
    updated_at: updated_at.toISOString(),
    total_hours_reported: hours_reported,
  }));
}
