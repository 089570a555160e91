import type { DashboardFilter, TeamItem } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { type DataScope, resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./teams.repository.js";

export async function listTeams(db: DbExecutor, user: ScopeSubject, filter: DashboardFilter): Promise<TeamItem[]> {
  return repo.listTeams(db, await resolveScope(db, user, filter), { cohortId: filter.cohortId });
}

/** The team if it belongs to the school and the scope may see it there (a student's new team). */
export function findTeamAtSchool(
  db: DbExecutor,
  scope: DataScope,
  teamId: number,
  schoolId: number,
): Promise<{ id: number; cohort_id: number } | undefined> {
  return repo.findTeamAtSchool(db, scope, teamId, schoolId);
}
