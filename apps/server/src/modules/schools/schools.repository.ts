import type { DbExecutor } from "../../db/executor.js";
import { type DataScope, schoolInScope } from "../scope/scope.js";

/** Schools in scope, by name. */
export async function listSchools(db: DbExecutor, scope: DataScope): Promise<Array<{ id: number; name: string; district: string }>> {
  return db
    .selectFrom("schools as sch")
    .select(["sch.id", "sch.name", "sch.district"])
    .where(schoolInScope(scope, "sch.id"))
    .orderBy("sch.name")
    .orderBy("sch.id")
    .execute();
}

/** The schools among `ids` that exist, by name. */
export function schoolsByIds(db: DbExecutor, ids: readonly number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("schools")
    .select(["id", "name"])
    .where("id", "in", [...ids])
    .orderBy("name")
    .orderBy("id")
    .execute();
}
