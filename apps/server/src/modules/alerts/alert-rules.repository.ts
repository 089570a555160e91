import type { DbExecutor } from "../../db/executor.js";

/** The settings row holding the rules document ({ rules, cohortOverrides, schedule }). */
export const ALERT_RULES_KEY = "alert_rules";

/** The stored rules document; undefined when never saved. */
export async function readStoredRules(db: DbExecutor): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", ALERT_RULES_KEY).executeTakeFirst();
  return row?.value;
}

/**
 * The stored rules document, its row locked until the transaction ends (made first when absent,
 * so two first saves queue too): each save's audit "before" is what the previous one left.
 */
export async function readStoredRulesForUpdate(trx: DbExecutor, at: Date): Promise<unknown> {
  await trx
    .insertInto("settings")
    .values({ key: ALERT_RULES_KEY, value: JSON.stringify(null), updated_by: null, updated_at: at })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await trx.selectFrom("settings").select("value").where("key", "=", ALERT_RULES_KEY).forUpdate().executeTakeFirst();
  return row?.value ?? undefined;
}

export async function writeStoredRules(trx: DbExecutor, value: unknown, by: number, at: Date): Promise<void> {
  await trx
    .updateTable("settings")
    .set({ value: JSON.stringify(value), updated_by: by, updated_at: at })
    .where("key", "=", ALERT_RULES_KEY)
    .execute();
}

/** Which of these cohort ids exist. */
export async function existingCohortIds(db: DbExecutor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("cohorts").select("id").where("id", "in", [...new Set(ids)]).execute();
  return new Set(rows.map((r) => r.id));
}
