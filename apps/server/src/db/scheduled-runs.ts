import { sql } from "kysely";
import type { DbExecutor } from "./executor.js";

/**
 * Claims one run of a scheduled job (a night, a week) for this instance: true for exactly one
 * caller across every server sharing the database, however many try at once — the primary key
 * (job, run_on) decides, without a lock held while the job runs. A job that then crashes stays
 * claimed: its run is lost until the next period (the claim is not retried, so no run repeats).
 */
export async function claimScheduledRun(db: DbExecutor, job: string, runOn: string, at: Date): Promise<boolean> {
  const { rows } = await sql<{ job: string }>`insert into scheduled_runs (job, run_on, claimed_at)
    values (${job}, cast(${runOn} as date), ${at}) on conflict do nothing returning job`.execute(db);
  return rows.length > 0;
}
