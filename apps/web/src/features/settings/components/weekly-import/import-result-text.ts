import type { ImportCommit } from "@tally/contract";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** At most this many skipped rows are named in the success message; the rest are counted. */
const NAMED_SKIPS = 3;

/**
 * The commit's success text: what was written, in words, and the rows skipped, named (issue
 * 29): "Week 3 of Summer 2026 imported: 40 students (40 new), 80 attendance records created, …".
 */
export function committedText(reply: ImportCommit, cohortName: string): string {
  const s = reply.summary;
  const what = [
    `${plural(s.totalStudentsInFiles, "student")} (${s.newStudentsCreatedCount} new)`,
    `${plural(s.attendanceRecordsCreated, "attendance record")} created, ${s.attendanceRecordsUpdated} updated`,
    `${plural(s.weeklyDataCreated, "weekly record")} created, ${s.weeklyDataUpdated} updated`,
  ].join(", ");
  const errors = reply.errorsEncountered;
  const named = errors.slice(0, NAMED_SKIPS).map((e) => e.error).join("; ");
  const more = errors.length > NAMED_SKIPS ? `; and ${errors.length - NAMED_SKIPS} more` : "";
  const skipped = errors.length === 0 ? " No row was skipped." : ` ${plural(errors.length, "row")} skipped: ${named}${more}.`;
  return `Week ${reply.week.number} of ${cohortName || "the cohort"} imported: ${what}.${skipped}`;
}
