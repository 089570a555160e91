import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

type Db = Kysely<Database> | Transaction<Database>;

export interface VisibilityRow {
  cohort_id: number;
  school_id: number | null;
  is_visible: boolean;
}

/** The whole cohort_visibility table: one row per explicit setting, so it stays small. */
export async function listVisibilityRows(db: Db): Promise<VisibilityRow[]> {
  return db.selectFrom("cohort_visibility").select(["cohort_id", "school_id", "is_visible"]).execute();
}
