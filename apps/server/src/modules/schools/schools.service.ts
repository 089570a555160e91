import type { SchoolItem, SchoolRef } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./schools.repository.js";

/** The schools the caller may see (admins: every school but the demo school). */
export async function listSchools(db: DbExecutor, user: ScopeSubject): Promise<SchoolItem[]> {
  return repo.listSchools(db, await resolveScope(db, user));
}

/** The schools among `ids` that exist, by name (no scope: for checking ids an administrator chose). */
export function schoolsByIds(db: DbExecutor, ids: readonly number[]): Promise<SchoolRef[]> {
  return repo.schoolsByIds(db, ids);
}

export async function schoolExists(db: DbExecutor, id: number): Promise<boolean> {
  return (await repo.schoolsByIds(db, [id])).length === 1;
}
