import type { ServerContext } from "../../context.js";
import { announceAlertsChanged } from "../notifications/notifications.service.js";
import { type EvaluateOptions, evaluateAlertsAfterChange } from "./alert-evaluation.service.js";
import { findSchoolsOfCohorts } from "./alert-schools.repository.js";

/**
 * The evaluation after a change (import commit, flag import, undo, rule change), then the open
 * clients of the schools concerned are told to reread their alerts (ALERTS_CHANGED on the live
 * connection, issue 30 "Live"). A rule change concerns every school. Like the evaluation, the
 * announcement never fails the change: an error is logged and the clients see it on their next read.
 */
export async function evaluateAlertsAndAnnounce(ctx: ServerContext, opts: Omit<EvaluateOptions, "now">): Promise<void> {
  await evaluateAlertsAfterChange(ctx, opts);
  try {
    const db = ctx.database.db;
    await announceAlertsChanged(db, opts.cohortIds === undefined ? "all" : await findSchoolsOfCohorts(db, opts.cohortIds));
  } catch (err) {
    ctx.log?.error({ err, ...opts }, "announcing the alerts' change to the live connections failed");
  }
}
