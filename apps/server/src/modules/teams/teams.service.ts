import type { DashboardFilter, TeamItem } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./teams.repository.js";

export async function listTeams(db: Kysely<Database>, user: ScopeSubject, filter: DashboardFilter): Promise<TeamItem[]> {
  return repo.listTeams(db, await resolveScope(db, user, filter), { cohortId: filter.cohortId });
}
