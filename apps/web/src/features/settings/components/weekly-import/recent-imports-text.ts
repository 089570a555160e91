import { type EditedStudent, type ImportBatch, type ImportSummary, STUDENT_EDIT_FIELD_LABELS } from "@tally/contract";

/**
 * The batch's counts that fit its type, one line each: a weekly import's students, attendance
 * and weekly data; a flag import writes only the week's flags (no attendance, no students).
 */
export function batchCountLines(summary: ImportSummary, kind: ImportBatch["kind"] = "weekly"): string[] {
  const students = `${summary.totalStudentsInFiles} ${summary.totalStudentsInFiles === 1 ? "student" : "students"}`;
  if (kind === "flags") return [students, `Flags: ${summary.weeklyDataCreated} weeks created, ${summary.weeklyDataUpdated} updated`];
  return [
    summary.newStudentsCreatedCount > 0 ? `${students} (${summary.newStudentsCreatedCount} new)` : students,
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

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** One student edited since an import: "Dimitri Silva: first name, by ms.jones, Jul 20, 2026, 09:30 AM" (each edit, "; " between). */
export function editedStudentText(student: EditedStudent): string {
  const edits = student.changes.map((c) => {
    const fields = listText(c.fields.map((f) => STUDENT_EDIT_FIELD_LABELS[f] ?? f));
    return `${fields}, by ${c.by ?? "a deleted account"}, ${batchDateText(c.at)}`;
  });
  return `${student.name}: ${edits.join("; ")}`;
}
