import type { CohortItem, SchoolFilterQuery } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import type { ScopeSubject } from "../scope/scope.js";
import { scopeForFilters } from "../scope/scope-request.js";
import * as repo from "./cohorts.repository.js";

export async function listCohorts(db: DbExecutor, user: ScopeSubject, query: SchoolFilterQuery): Promise<CohortItem[]> {
  return repo.listCohorts(db, await scopeForFilters(db, user, query));
}

/** Cohorts running today (start_date <= today <= end_date, UTC date of the clock). */
export async function listActiveCohorts(
  db: DbExecutor,
  user: ScopeSubject,
  query: SchoolFilterQuery,
  now: Date,
): Promise<CohortItem[]> {
  const today = now.toISOString().slice(0, 10);
  return repo.listCohorts(db, await scopeForFilters(db, user, query), { activeOn: today });
}
