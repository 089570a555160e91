import {
  type ErasureCounts,
  RETENTION_MESSAGES,
  RETENTION_PREVIEW_NAMES,
  RETENTION_RUN_AT,
  type RetentionPreview,
} from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { claimScheduledRun } from "../../db/scheduled-runs.js";
import { type DailyTimer, startDailyTimer } from "../../lib/daily-timer.js";
import { conflict } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { readDemoSettings } from "../scope/scope-settings.service.js";
import { readPrivacySettings } from "../settings/privacy-settings.service.js";
import * as students from "../students/student-erasure.service.js";
import { ERASURE_BATCH, eraseRows } from "./erasure.service.js";

/** The scheduled_runs job name of the nightly run. */
export const RETENTION_JOB = "retention";

/** The day `years` before `now` (UTC, as the cohorts' dates): a cohort ending before it has expired. */
export function retentionCutoff(now: Date, years: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

// The demo school's students are the demo's own (hidden from admins): retention leaves them.
async function expiredFilter(ctx: ServerContext, years: number): Promise<students.ExpiredFilter> {
  const demo = await readDemoSettings(ctx.database.db);
  return { cutoff: retentionCutoff(ctx.clock.now(), years), exceptSchoolId: demo.schoolId };
}

/** GET /settings/privacy/retention-preview: what a run now would remove, for `years` or the saved setting. */
export async function previewRetention(ctx: ServerContext, years: number | undefined): Promise<RetentionPreview> {
  const chosen = years ?? (await readPrivacySettings(ctx.database.db)).retentionYears;
  if (chosen === null) return { students: 0, names: [] };
  return students.expiredStudentNames(ctx.database.db, await expiredFilter(ctx, chosen), RETENTION_PREVIEW_NAMES);
}

/**
 * Removes every expired student, ERASURE_BATCH to a transaction (the erasure's row removal:
 * rollups stay exact, access records keep only the anonymous id); one audit row with the totals.
 * A crash loses no more than the batch under way (its transaction rolls back); the batches
 * before it stay removed. null when retention is off.
 */
async function runRetention(ctx: ServerContext, actorId: number | null, trigger: "nightly" | "manual"): Promise<ErasureCounts | null> {
  const db = ctx.database.db;
  const { retentionYears } = await readPrivacySettings(db);
  if (retentionYears === null) return null;
  const filter = await expiredFilter(ctx, retentionYears);
  const total: ErasureCounts = { students: 0, attendance: 0, weeklyData: 0, cohorts: 0, teams: 0 };
  let after = 0;
  for (;;) {
    const counts = await db.transaction().execute(async (trx) => {
      // Chosen and locked inside the batch's transaction: a student who joined a cohort since the preview stays.
      const ids = await students.lockStudents(trx, await students.expiredStudentIds(trx, filter, after, ERASURE_BATCH));
      if (ids.length === 0) return null;
      after = ids[ids.length - 1] ?? after;
      return eraseRows(trx, ids);
    });
    if (counts === null) break;
    for (const key of Object.keys(total) as Array<keyof ErasureCounts>) total[key] += counts[key];
  }
  await recordChange(db, {
    actorId,
    action: "privacy.retention.run",
    entity: "settings",
    entityId: "privacy",
    before: null,
    after: { trigger, retentionYears, cutoff: filter.cutoff, ...total },
    at: ctx.clock.now(),
  });
  return total;
}

/** POST /settings/privacy/retention-run: the nightly run, now (409 while retention is off). */
export async function runRetentionNow(ctx: ServerContext, actorId: number): Promise<ErasureCounts> {
  const counts = await runRetention(ctx, actorId, "manual");
  if (counts === null) throw conflict(RETENTION_MESSAGES.off);
  return counts;
}

/** The night's run for `day`: by the one instance that claims it; others (and a second call) do nothing. */
export async function runNightlyRetention(ctx: ServerContext, day: string): Promise<ErasureCounts | null> {
  const db = ctx.database.db;
  // Off: nothing runs and nothing is claimed.
  if ((await readPrivacySettings(db)).retentionYears === null) return null;
  if (!(await claimScheduledRun(db, RETENTION_JOB, day, ctx.clock.now()))) return null;
  return runRetention(ctx, null, "nightly");
}

/** Starts the nightly run at RETENTION_RUN_AT, server local; the app stops it on close. */
export function startRetentionSchedule(ctx: ServerContext, log: FastifyBaseLogger): DailyTimer {
  return startDailyTimer(
    ctx.clock,
    RETENTION_RUN_AT,
    async (day) => {
      const counts = await runNightlyRetention(ctx, day);
      if (counts) log.info({ day, ...counts }, "retention run");
    },
    (err) => log.error({ err }, "the nightly retention run failed"),
  );
}
