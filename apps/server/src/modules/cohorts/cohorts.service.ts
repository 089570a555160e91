import type { CohortItem, DashboardFilter } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./cohorts.repository.js";

export async function listCohorts(db: DbExecutor, user: ScopeSubject, filter: DashboardFilter): Promise<CohortItem[]> {
  return repo.listCohorts(db, await resolveScope(db, user, filter));
}

/** Cohorts running today (start_date <= today <= end_date, UTC date of the clock). */
export async function listActiveCohorts(
  db: DbExecutor,
  user: ScopeSubject,
  filter: DashboardFilter,
  now: Date,
): Promise<CohortItem[]> {
  const today = now.toISOString().slice(0, 10);
  return repo.listCohorts(db, await resolveScope(db, user, filter), { activeOn: today });
}
