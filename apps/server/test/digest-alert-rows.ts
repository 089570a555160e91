import type { AlertRule, AlertSeverity, AlertState } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.js";
import { buildAlert } from "./alert-factory.js";

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

/** buildAlert with the digest tests' defaults (a warning of this programme year), plus an escalation. */
export async function insertAlertRow(db: Kysely<Database>, input: AlertRowInput): Promise<number> {
  const row = await buildAlert(db, {
    studentId: input.studentId,
    cohortId: input.cohortId,
    rule: input.rule,
    severity: input.severity ?? "warning",
    state: input.state,
    evidence: input.evidence ?? "Missed 2 meetings in a row: mentor on 2026-01-05, advisor on 2026-01-06.",
    yearStart: "2025-08-01",
    openedAt: input.openedAt,
    conditionEndedAt: input.conditionEndedAt,
  });
  if (input.escalatedAt) {
    await db.insertInto("alert_events").values({ alert_id: row.id, at: input.escalatedAt, kind: "escalated", user_id: null, note: null, level: 3 }).execute();
  }
  return row.id;
}
