import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { readAlertSchedule } from "../alerts/alerts-digest.service.js";
import { dueWeek, nextDigestRun, weekStartOf } from "./digest-schedule.js";
import { type DigestRunResult, runDigestWeek } from "./digests.service.js";

// The weekly digest's scheduler, inside the server (no cron to install). It wakes at the next
// Monday 07:00 programme time, and at least every TICK_MS in between: each wake-up re-reads
// the schedule setting (so a change takes effect without a restart), sends what is due and
// retries deliveries claimed but not sent. Runs are safe on every instance at once and after
// a restart: each user's week is claimed in digest_deliveries before anything is sent.

/** The longest the scheduler sleeps: how soon a failed delivery is retried, a changed setting read. */
const TICK_MS = 15 * 60_000;
// A clock that does not move (a test's) must not spin the timer; a freshly started app (a test's)
// must not send before it had a chance to be used: wait at least this long.
const MIN_DELAY_MS = 60_000;

export interface DigestScheduler {
  /** One wake-up now: what is due (Monday's digest, or retries). */
  tick(): Promise<DigestRunResult | null>;
  /** After a committed import: the week's digest when the setting says after_import. */
  afterImport(): Promise<DigestRunResult | null>;
  /** Clears the timer and waits for a run under way. */
  stop(): Promise<void>;
}

const schedulers = new WeakMap<ServerContext, DigestScheduler>();

/** What one wake-up at `now` does: the due week's digests, or only retries (after_import). */
export async function digestTick(ctx: ServerContext): Promise<DigestRunResult | null> {
  const schedule = await readAlertSchedule(ctx.database.db);
  const now = ctx.clock.now();
  if (schedule.digestWhen === "after_import") return runDigestWeek(ctx, weekStartOf(now, schedule.timeZone), { retryOnly: true });
  const week = dueWeek(now, schedule.timeZone);
  return week === null ? null : runDigestWeek(ctx, week);
}

/** What a committed import sets off: the week's digests when the setting is after_import. */
export async function digestAfterImport(ctx: ServerContext): Promise<DigestRunResult | null> {
  const schedule = await readAlertSchedule(ctx.database.db);
  if (schedule.digestWhen !== "after_import") return null;
  return runDigestWeek(ctx, weekStartOf(ctx.clock.now(), schedule.timeZone), { releaseEmpty: true });
}

/** Starts the app's digest scheduler (the digests routes do, and stop it on close). */
export function startDigestScheduler(ctx: ServerContext, log: FastifyBaseLogger): DigestScheduler {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  // One run at a time per instance; several instances are kept apart by the claims.
  const serial = (run: () => Promise<DigestRunResult | null>): Promise<DigestRunResult | null> => {
    const next = running.then(run, run).then(
      (result) => {
        if (result && result.sent + result.empty + result.failed > 0) log.info({ digest: result }, "weekly digest run");
        return result;
      },
      (err: unknown) => {
        log.error({ err }, "the weekly digest run failed");
        return null;
      },
    );
    running = next;
    return next;
  };
  const schedule = async () => {
    if (stopped) return;
    const now = ctx.clock.now();
    let wait = TICK_MS;
    try {
      const { timeZone } = await readAlertSchedule(ctx.database.db);
      wait = Math.min(TICK_MS, nextDigestRun(now, timeZone).getTime() - now.getTime());
    } catch (err) {
      log.warn({ err }, "the digest schedule could not be read; trying again later");
    }
    if (stopped) return;
    timer = setTimeout(() => void scheduler.tick().finally(schedule), Math.max(MIN_DELAY_MS, wait));
    timer.unref();
  };
  const scheduler: DigestScheduler = {
    tick: () => serial(() => digestTick(ctx)),
    afterImport: () => serial(() => digestAfterImport(ctx)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      schedulers.delete(ctx);
      await running;
    },
  };
  schedulers.set(ctx, scheduler);
  void schedule();
  return scheduler;
}

/**
 * Called by the import path right after a weekly import commits: sends the week's digests in
 * the background when the setting is "after_import" (never delays or fails the import).
 */
export function startDigestsAfterImport(ctx: ServerContext): void {
  void schedulers.get(ctx)?.afterImport();
}
