import { type AlertSchedule, alertScheduleSchema, DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { type ScopeSubject, resolveScope } from "../scope/scope.js";
import * as repo from "./alerts-digest.repository.js";

// What the weekly digest (modules/digests) asks of the alerts: the programme's schedule and
// the new and escalated alerts of one user's scope. digests → alerts, never the other way.

export type { DigestAlertRow } from "./alerts-digest.repository.js";

/** The rules document's schedule (digestWhen, timeZone …); the default when absent or unreadable. */
export async function readAlertSchedule(db: DbExecutor): Promise<AlertSchedule> {
  const doc = await repo.readAlertRulesDocument(db);
  const stored = doc !== null && typeof doc === "object" ? (doc as { schedule?: unknown }).schedule : undefined;
  const parsed = alertScheduleSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_ALERT_SCHEDULE;
}

export interface DigestAlerts {
  alerts: repo.DigestAlertRow[];
  /** All that qualify: may exceed alerts.length when the list was cut at `limit`. */
  total: number;
}

/**
 * The live open or acknowledged alerts in the user's scope (exactly the dashboards' scope)
 * that were opened, escalated or reopened since `since`.
 */
export async function listNewAndEscalatedAlerts(db: DbExecutor, subject: ScopeSubject, since: Date, limit: number): Promise<DigestAlerts> {
  const scope = await resolveScope(db, subject);
  const alerts = await repo.listDigestAlerts(db, scope, since, limit);
  const total = alerts.length < limit ? alerts.length : await repo.countDigestAlerts(db, scope, since);
  return { alerts, total };
}
