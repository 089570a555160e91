import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
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

/**
 * SQL: the same rows as one JSON array, for a statement that reads them beside other data
 * (the authenticated caller's account), saving the embedded engine a round trip.
 */
export function visibilityRowsJson(): RawBuilder<VisibilityRow[]> {
  return sql<VisibilityRow[]>`(select coalesce(json_agg(json_build_object(
      'cohort_id', v.cohort_id, 'school_id', v.school_id, 'is_visible', v.is_visible)), '[]'::json)
    from cohort_visibility v)`;
}
