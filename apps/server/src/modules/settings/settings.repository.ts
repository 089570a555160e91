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

/**
 * The stored value of one setting, locked until the caller's transaction ends (undefined when
 * never saved), so two saves of the same setting apply one after the other.
 */
export async function readSettingForUpdate(db: DbExecutor, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).forUpdate().executeTakeFirst();
  return row?.value;
}

/** Stores one setting's whole value (insert or replace). */
export async function writeSetting(db: DbExecutor, key: string, value: unknown, by: number | null, at: Date): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto("settings")
    .values({ key, value: json, updated_by: by, updated_at: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_by: by, updated_at: at }))
    .execute();
}

/**
 * Creates a setting's row with `value` unless it exists, so a following readSettingForUpdate
 * has a row to lock even on the very first save (two first saves then queue rather than both
 * reading "never saved").
 */
export async function insertSettingIfAbsent(db: DbExecutor, key: string, value: unknown, at: Date): Promise<void> {
  await db
    .insertInto("settings")
    .values({ key, value: JSON.stringify(value), updated_by: null, updated_at: at })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}
