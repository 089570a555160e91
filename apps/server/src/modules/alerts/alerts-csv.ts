import { type Alert, ALERT_RULE_WORDS, csvRecord, UTF8_BOM } from "@tally/contract";

// GET /alerts.csv: the call list as a spreadsheet. Names, evidence and notes come from outside,
// so every cell goes through the contract's formula-safe csvCell (via csvRecord).

export const ALERTS_CSV_COLUMNS = [
  "Alert ID",
  "Student ID",
  "Student",
  "School",
  "Cohort",
  "Team",
  "Rule",
  "Severity",
  "State",
  "Since",
  "Updated",
  "Assigned to",
  "Data withdrawn",
  "Evidence",
] as const;

/** The download's name, dated by the day it was made (UTC). */
export function alertsCsvFileName(now: Date): string {
  return `alerts-${now.toISOString().slice(0, 10)}.csv`;
}

export function alertCsvRecord(a: Alert): string {
  return csvRecord([
    a.id,
    a.studentId,
    a.studentName,
    a.schoolName,
    a.cohortName,
    a.teamName,
    ALERT_RULE_WORDS[a.rule],
    a.severity,
    a.state,
    a.since,
    a.updatedAt,
    a.assigneeName,
    a.dataWithdrawn ? "yes" : "no",
    a.evidence,
  ]);
}

/** The whole file: BOM and header, then one record per alert as the list yields them. */
export async function* alertsCsv(alerts: AsyncIterable<Alert>): AsyncGenerator<string> {
  yield UTF8_BOM + csvRecord(ALERTS_CSV_COLUMNS);
  for await (const alert of alerts) yield alertCsvRecord(alert);
}
