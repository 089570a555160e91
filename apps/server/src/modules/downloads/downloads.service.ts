import { LIMITS, MESSAGES } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { tooManyRequests } from "../../lib/errors.js";
import * as repo from "./downloads.repository.js";

const MINUTE_MS = 60_000;

/**
 * Counts one download of student data or of the audit log (students CSV, PDF report, audit
 * CSV) for the user, or refuses it: at most LIMITS.downloadsPerMinute in any rolling minute,
 * then 429 with the seconds until the oldest counted one leaves the minute. Call it once the
 * download is known to be allowed, so a refused export uses up nothing. The e-mailed report
 * has its own limit (report-email.ts).
 */
export async function takeDownload(ctx: ServerContext, userId: number): Promise<void> {
  const now = ctx.clock.now();
  const windowStart = new Date(now.getTime() - MINUTE_MS);
  await ctx.database.db.transaction().execute(async (trx) => {
    await repo.lockUserDownloads(trx, userId);
    await repo.deleteDownloadsUpTo(trx, userId, windowStart);
    const { count, oldest } = await repo.countDownloadsAfter(trx, userId, windowStart);
    if (count >= LIMITS.downloadsPerMinute) {
      const leavesAt = (oldest ?? now).getTime() + MINUTE_MS;
      throw tooManyRequests(MESSAGES.tooManyDownloads, (leavesAt - now.getTime()) / 1000);
    }
    await repo.insertDownload(trx, userId, now);
  });
}
