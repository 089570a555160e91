import type { Alert, AlertRule, AlertSeverity, AlertState } from "@tally/contract";

/** One alert as GET /api/alerts answers it (packages/contract alertSchema). */
export function buildAlert(id: number, overrides: Partial<Alert> = {}): Alert {
  const rules: AlertRule[] = ["consecutive_misses", "attendance_band", "flags"];
  const severities: AlertSeverity[] = ["urgent", "warning", "info"];
  return {
    id,
    studentId: 100 + id,
    studentName: `Student${id} Tester`,
    schoolId: 1,
    schoolName: "North High",
    cohortId: 10,
    cohortName: "Spring 2025",
    teamName: "Falcons",
    rule: rules[id % rules.length]!,
    severity: severities[id % severities.length]!,
    state: "open" as AlertState,
    evidence: `Missed 2 meetings in a row: mentor 3 Mar, advisor 10 Mar (${id})`,
    details: { level: 2 },
    since: "2025-03-10T09:00:00.000Z",
    updatedAt: "2025-03-10T09:00:00.000Z",
    assigneeId: null,
    assigneeName: null,
    dataWithdrawn: false,
    ...overrides,
  };
}
