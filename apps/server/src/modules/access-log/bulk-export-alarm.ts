import { FULL_EXPORTS_ALARM } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { recordChange } from "../audit/audit.service.js";
import { readPrivacySettings } from "../settings/privacy-settings.service.js";
import { listUsers } from "../users/users.service.js";
import * as repo from "./access-log.repository.js";

const DAY_MS = 86_400_000;

/** What a user did in the rolling 24 hours. */
interface BulkAccess {
  students: number;
  fullExports: number;
}

/**
 * After a batch of the record is written: a user who viewed or exported more distinct students
 * than the threshold, or made FULL_EXPORTS_ALARM full exports, in the rolling 24 hours raises
 * the alarm, once until a super admin clears it: an audit row, and an e-mail to every active
 * super admin.
 */
export async function checkBulkAccess(ctx: ServerContext, userIds: readonly number[], log?: FastifyBaseLogger): Promise<void> {
  const db = ctx.database.db;
  const settings = await readPrivacySettings(db);
  const now = ctx.clock.now();
  for (const userId of new Set(userIds)) {
    const since = new Date(now.getTime() - DAY_MS);
    const { students, fullExports } = await repo.countAccessSince(db, userId, since);
    if (students <= settings.bulkExportThreshold && fullExports < FULL_EXPORTS_ALARM) continue;
    const raised = await db.transaction().execute(async (trx) => {
      if (!(await repo.raiseAlarm(trx, userId, students, now))) return false;
      await recordChange(trx, {
        actorId: null,
        action: "privacy.alarm.raised",
        entity: "user",
        entityId: String(userId),
        before: null,
        after: { students, fullExports, threshold: settings.bulkExportThreshold, blocked: settings.blockOnAlarm },
        at: now,
        clientAddress: null,
      });
      return true;
    });
    if (raised) await mailSuperAdmins(ctx, userId, { students, fullExports }, settings, log);
  }
}

async function mailSuperAdmins(
  ctx: ServerContext,
  userId: number,
  { students, fullExports }: BulkAccess,
  settings: { bulkExportThreshold: number; blockOnAlarm: boolean },
  log?: FastifyBaseLogger,
): Promise<void> {
  const users = await listUsers(ctx.database.db)
  const who = users.find((u) => u.id === userId);
  const name = who ? `${who.username} (${who.email})` : `user #${userId}`;
  const text = [
    `${name} viewed or exported the records of ${students} distinct students in the last 24 hours (alarm threshold: ${settings.bulkExportThreshold}),`,
    `and made ${fullExports} full exports (every school in their scope, no team; the alarm rings at ${FULL_EXPORTS_ALARM}).`,
    "",
    settings.blockOnAlarm ? "Their exports are refused until a super admin clears the alarm." : "Their exports are not blocked.",
    "The record of access (Access log) shows what they opened and exported.",
  ].join("\n");
  for (const admin of users.filter((u) => u.role === "super_admin" && u.is_active)) {
    try {
      await ctx.mailer.send({ to: admin.email, subject: "Tally: bulk-export alarm", text });
    } catch (err) {
      log?.error({ err }, "sending the bulk-export alarm failed")
    }
  }
}

/**
 * How the alarm stands for the user's next export when the privacy setting blocks on it (null
 * when it does not): whether an alarm stands, and since when full exports count toward it (the
 * rolling 24 hours, from the last clearing if later). The export gate refuses on either.
 */
export async function exportAlarm(ctx: ServerContext, userId: number): Promise<{ standing: boolean; fullExportsSince: Date } | null> {
  const db = ctx.database.db;
  if (!(await readPrivacySettings(db)).blockOnAlarm) return null;
  const [standing, cleared] = await Promise.all([repo.hasOpenAlarm(db, userId), repo.lastClearedAt(db, userId)]);
  const dayAgo = ctx.clock.now().getTime() - DAY_MS;
  return { standing, fullExportsSince: new Date(Math.max(dayAgo, cleared?.getTime() ?? 0)) };
}

/** DELETE /access-log/alarms/:id (super admins): clears the user's alarm, audited. */
export async function clearBulkAlarm(ctx: ServerContext, actorId: number, userId: number): Promise<{ cleared: boolean }> {
  const now = ctx.clock.now();
  const cleared = await ctx.database.db.transaction().execute(async (trx) => {
    if (!(await repo.clearAlarm(trx, userId, actorId, now))) return false;
    await recordChange(trx, { actorId, action: "privacy.alarm.cleared", entity: "user", entityId: String(userId), before: null, after: null, at: now });
    return true;
  });
  return { cleared };
}
