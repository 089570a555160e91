import type { TeamItem } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ScopeSubject } from "../scope/scope.js";
import { type SchoolFilters, scopeForFilters } from "../scope/scope-request.js";
import * as repo from "./teams.repository.js";

export async function listTeams(
  db: Kysely<Database>,
  user: ScopeSubject,
  query: SchoolFilters & { cohortId?: number | undefined },
): Promise<TeamItem[]> {
  return repo.listTeams(db, await scopeForFilters(db, user, query), { cohortId: query.cohortId });
}
