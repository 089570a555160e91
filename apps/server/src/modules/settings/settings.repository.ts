import type { DbExecutor } from "../../db/executor.js";
import type { VisibilityRow } from "../scope/scope-settings.service.js";

/** The stored value of one setting ('features', 'demo'); undefined when never saved. */
export async function readSetting(db: DbExecutor, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
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

/** The cohort visibility rows that apply at one school: its own rows and the all-schools rows. */
export async function listCohortVisibilityAt(db: DbExecutor, schoolId: number): Promise<VisibilityRow[]> {
  return db
    .selectFrom("cohort_visibility")
    .select(["cohort_id", "school_id", "is_visible"])
    .where((eb) => eb.or([eb("school_id", "is", null), eb("school_id", "=", schoolId)]))
    .orderBy("cohort_id")
    .orderBy("school_id", (ob) => ob.nullsFirst())
    .execute();
}

/** The advisory lock key of cohort visibility saves (any constant no other save uses). */
const COHORT_VISIBILITY_LOCK = 10_001;

/**
 * Takes the cohort visibility save lock until the transaction ends, so saves run one after the
 * other (and each reads its "before" after the previous one committed), while readers (every
 * request's caller statement) go on reading the last committed rows unblocked.
 */
export async function lockCohortVisibility(trx: DbExecutor): Promise<void> {
  await trx.selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.lit(COHORT_VISIBILITY_LOCK)]).as("locked")).execute();
}

/** Inserts or replaces one visibility row per (cohort, school) named; rows not named stay. */
export async function upsertCohortVisibility(db: DbExecutor, rows: readonly VisibilityRow[], at: Date): Promise<void> {
  for (const row of rows) {
    // The unique key is (cohort_id, coalesce(school_id, 0)), an expression index: update, else insert.
    const updated = await db
      .updateTable("cohort_visibility")
      .set({ is_visible: row.is_visible, updated_at: at })
      .where("cohort_id", "=", row.cohort_id)
      .where((eb) => (row.school_id === null ? eb("school_id", "is", null) : eb("school_id", "=", row.school_id)))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await db
        .insertInto("cohort_visibility")
        .values({ cohort_id: row.cohort_id, school_id: row.school_id, is_visible: row.is_visible, updated_at: at })
        .execute();
    }
  }
}
