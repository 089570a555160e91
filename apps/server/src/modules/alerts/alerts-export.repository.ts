import type { StudentExportAlert } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";

/** A student's alerts and their timelines, oldest first: the student's own export (issue 30, issue 32). */
export async function studentAlertsForExport(db: DbExecutor, studentId: number): Promise<StudentExportAlert[]> {
  const alerts = await db
    .selectFrom("alerts")
    .select(["id", "cohort_id", "rule", "severity", "state", "evidence", "opened_at", "updated_at", "condition_ended_at", "data_withdrawn"])
    .where("student_id", "=", studentId)
    .orderBy("opened_at")
    .orderBy("id")
    .execute();
  if (alerts.length === 0) return [];
  const events = await db
    .selectFrom("alert_events")
    .select(["alert_id", "at", "kind", "user_id", "note"])
    .where(
      "alert_id",
      "in",
      alerts.map((a) => a.id),
    )
    .orderBy("at")
    .orderBy("id")
    .execute();
  return alerts.map((a) => ({
    id: a.id,
    cohortId: a.cohort_id,
    rule: a.rule,
    severity: a.severity,
    state: a.state,
    evidence: a.evidence,
    openedAt: new Date(a.opened_at).toISOString(),
    updatedAt: new Date(a.updated_at).toISOString(),
    conditionEndedAt: a.condition_ended_at ? new Date(a.condition_ended_at).toISOString() : null,
    dataWithdrawn: a.data_withdrawn,
    timeline: events
      .filter((e) => e.alert_id === a.id)
      .map((e) => ({ at: new Date(e.at).toISOString(), kind: e.kind, userId: e.user_id, note: e.note })),
  }));
}
