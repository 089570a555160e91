import type { AlertRule, AlertSeverity, AlertState } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.js";

// Alert rows for the digest's tests, written straight into the alerts table (migration 026):
// the digest reads alerts, it does not raise them.

export interface AlertRowInput {
  studentId: number;
  cohortId: number;
  rule?: AlertRule;
  severity?: AlertSeverity;
  state?: AlertState;
  evidence?: string;
  openedAt: Date;
  conditionEndedAt?: Date | null;
  /** Adds an 'escalated' timeline event at this moment. */
  escalatedAt?: Date;
}

export async function insertAlertRow(db: Kysely<Database>, input: AlertRowInput): Promise<number> {
  const row = await db
    .insertInto("alerts")
    .values({
      student_id: input.studentId,
      cohort_id: input.cohortId,
      rule: input.rule ?? "consecutive_misses",
      severity: input.severity ?? "warning",
      state: input.state ?? "open",
      level: 2,
      evidence: input.evidence ?? "Missed 2 meetings in a row: mentor on 2026-01-05, advisor on 2026-01-06.",
      details: JSON.stringify({ level: 2 }),
      year_start: "2025-08-01",
      opened_at: input.openedAt,
      updated_at: input.openedAt,
      condition_ended_at: input.conditionEndedAt ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (input.escalatedAt) {
    await db.insertInto("alert_events").values({ alert_id: row.id, at: input.escalatedAt, kind: "escalated", user_id: null, note: null, level: 3 }).execute();
  }
  return row.id;
}
