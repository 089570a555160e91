import type { SchoolItem } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./schools.repository.js";

/** The schools the caller may see (admins: every school but the demo school). */
export async function listSchools(db: Kysely<Database>, user: ScopeSubject): Promise<SchoolItem[]> {
  return repo.listSchools(db, await resolveScope(db, user));
}
