import type { ImportSummary } from "@tally/contract";

/** The batch's counts, one line each: "40 students", "Attendance: 80 created, 0 updated", … */
export function batchCountLines(summary: ImportSummary): string[] {
  return [
    `${summary.totalStudentsInFiles} ${summary.totalStudentsInFiles === 1 ? "student" : "students"}`,
    `Attendance: ${summary.attendanceRecordsCreated} created, ${summary.attendanceRecordsUpdated} updated`,
    `Weekly data: ${summary.weeklyDataCreated} created, ${summary.weeklyDataUpdated} updated`,
  ];
}

/** The batch's time in the viewer's locale, to the minute. */
export function batchDateText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
