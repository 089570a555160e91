import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { type DataScope, schoolInScope } from "../scope/scope.js";

type Db = Kysely<Database> | Transaction<Database>;

/** Schools in scope, by name. */
export async function listSchools(db: Db, scope: DataScope): Promise<Array<{ id: number; name: string; district: string }>> {
  return db
    .selectFrom("schools as sch")
    .select(["sch.id", "sch.name", "sch.district"])
    .where(schoolInScope(scope, "sch.id"))
    .orderBy("sch.name")
    .orderBy("sch.id")
    .execute();
}
