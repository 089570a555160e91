import type { ImportBatch, ImportSummary } from "@tally/contract";

/** "40 students · 80 attendance created · 0 updated · 40 weekly created · 0 updated". */
export function batchCountsText(summary: ImportSummary): string {
  return [
    `${summary.totalStudentsInFiles} students`,
    `${summary.attendanceRecordsCreated} attendance created`,
    `${summary.attendanceRecordsUpdated} updated`,
    `${summary.weeklyDataCreated} weekly created`,
    `${summary.weeklyDataUpdated} updated`,
  ].join(" · ");
}

/** The batch's time in the viewer's locale, to the minute. */
export function batchDateText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

export const batchFilesText = (batch: ImportBatch) => batch.files.map((f) => f.name).join(", ");
