import { LIMITS, MESSAGES } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { tooManyRequests } from "../../lib/errors.js";
import * as repo from "./downloads.repository.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What one claim takes: a download (the per-minute limit), a full export (the alarm's count), or both. */
export interface DownloadClaim {
  download: boolean;
  fullExport: boolean;
  /** Refuse a full export when `max` were already claimed after `since` (the alarm blocks exports). */
  fullExportCap?: { max: number; since: Date } | undefined;
}

/**
 * Claims one download of student data or of the audit log for the user, or refuses it, in one
 * locked transaction (the same count on every instance, parallel calls included): at most
 * LIMITS.downloadsPerMinute downloads in any rolling minute, then 429 with the seconds until the
 * oldest counted one leaves the minute; and, with a cap, no full export past it (answered
 * "full-exports-spent", for the caller to refuse). Call it once the download is known to be
 * allowed, so a refused export uses up nothing.
 */
export async function claimDownload(ctx: ServerContext, userId: number, claim: DownloadClaim): Promise<"claimed" | "full-exports-spent"> {
  const now = ctx.clock.now();
  const windowStart = new Date(now.getTime() - MINUTE_MS);
  return ctx.database.db.transaction().execute(async (trx) => {
    await repo.lockUserDownloads(trx, userId);
    await repo.deleteDownloadsUpTo(trx, userId, windowStart, new Date(now.getTime() - DAY_MS));
    if (claim.download) {
      const { count, oldest } = await repo.countDownloadsAfter(trx, userId, windowStart);
      if (count >= LIMITS.downloadsPerMinute) {
        const leavesAt = (oldest ?? now).getTime() + MINUTE_MS;
        throw tooManyRequests(MESSAGES.tooManyDownloads, (leavesAt - now.getTime()) / 1000);
      }
    }
    const cap = claim.fullExportCap;
    if (claim.fullExport && cap && (await repo.countFullExportsAfter(trx, userId, cap.since)) >= cap.max) return "full-exports-spent";
    await repo.insertDownload(trx, userId, now, { download: claim.download, fullExport: claim.fullExport });
    return "claimed";
  });
}

/** A download that is no export of student data (the audit log's CSV): the per-minute limit only. */
export async function takeDownload(ctx: ServerContext, userId: number): Promise<void> {
  await claimDownload(ctx, userId, { download: true, fullExport: false });
}
