import type { DbExecutor } from "../../db/executor.js";

export interface VisibilityRow {
  cohort_id: number;
  school_id: number | null;
  is_visible: boolean;
}

/** The stored value of one setting ('features', 'demo'); undefined when never saved. */
export async function readSetting(db: DbExecutor, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** The whole cohort_visibility table: one row per explicit setting, so it stays small. */
export async function listCohortVisibility(db: DbExecutor): Promise<VisibilityRow[]> {
  return db.selectFrom("cohort_visibility").select(["cohort_id", "school_id", "is_visible"]).execute();
}
