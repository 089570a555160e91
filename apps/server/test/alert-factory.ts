import type { AlertDetails, AlertRule, AlertSeverity, AlertState } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.js";

export interface BuildAlertOptions {
  studentId: number;
  cohortId: number;
  rule?: AlertRule;
  severity?: AlertSeverity;
  state?: AlertState;
  level?: number;
  evidence?: string;
  details?: AlertDetails;
  /** When the episode began (default: 2025-01-20). */
  openedAt?: Date | string;
  /** Set: the episode is over (history). */
  conditionEndedAt?: Date | string | null;
  assigneeId?: number | null;
  yearStart?: string;
}

/** An alert row as the evaluation would leave it (default: an open, urgent, live consecutive_misses episode). */
export async function buildAlert(db: Kysely<Database>, options: BuildAlertOptions) {
  const openedAt = options.openedAt ?? "2025-01-20T08:00:00Z";
  const level = options.level ?? 2;
  return db
    .insertInto("alerts")
    .values({
      student_id: options.studentId,
      cohort_id: options.cohortId,
      rule: options.rule ?? "consecutive_misses",
      severity: options.severity ?? "urgent",
      state: options.state ?? "open",
      level,
      evidence: options.evidence ?? `Missed ${level} meetings in a row`,
      details: JSON.stringify(options.details ?? { level }),
      year_start: options.yearStart ?? "2024-08-01",
      opened_at: openedAt,
      updated_at: openedAt,
      condition_ended_at: options.conditionEndedAt ?? null,
      assignee_id: options.assigneeId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
