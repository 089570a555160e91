// The "Flag rules" table of report-formats.md: which flags a student gets for one week, and
// how a new calculation is merged with the flags another source already stored.

export const FLAG_CODES = [
  "NO_PLATFORM_RECORD",
  "BEHIND_PROGRESS",
  "PAST_DUE",
  "NO_REFLECTION",
  "LOW_HOURS",
  "LOW_WELLBEING",
  "ABSENT_SESSIONS",
  "UNRECORDED_SESSIONS",
  "MISSED_MEETING",
] as const; // table order
export type FlagCode = (typeof FLAG_CODES)[number];

/** The codes the weekly import decides (it has no CRM report). */
export const WEEKLY_IMPORT_CODES: readonly FlagCode[] = FLAG_CODES.filter((c) => c !== "ABSENT_SESSIONS" && c !== "UNRECORDED_SESSIONS");
/** The codes the flag uploader decides (it has no meeting report). */
export const FLAG_UPLOADER_CODES: readonly FlagCode[] = FLAG_CODES.filter((c) => c !== "MISSED_MEETING");

export interface FlagFacts {
  week: number;
  weekCount: number;
  totalExpectedHours: number | null;
  /** Weekly import: true (the meeting report is the roster); flag uploader: true when in the CRM report. */
  inPlatformSource: boolean;
  /** null: not in the progress report. A value the row had but could not be read is null: its flag is not decided. */
  progress: { progress: number | null; pastDue: number | null } | null;
  /** null: not in the reflection report. An unreadable value is null, as in `progress`. */
  reflection: { hours: number | null; rating: number | null } | null;
  /** Flag uploader only: the student's CRM rows that are Absent, and still Enrolled (an unknown status counts as neither). */
  crm?: { absent: number; enrolled: number };
  /** Weekly import only. */
  meetings?: { mentorAbsent: boolean; advisorAbsent: boolean };
}

export interface FlagItem {
  code: FlagCode;
  text: string;
}

/** A number as the flag texts write it: at most one decimal, no trailing zeros (50, 42.9, 7.5). */
export function plainNumber(n: number): string {
  const rounded = Math.round(n * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Expected hours per week: the cohort's total over its weeks, 10 when it has none. */
export function expectedWeeklyHours(totalExpectedHours: number | null, weekCount: number): number {
  if (!totalExpectedHours || weekCount < 1) return 10;
  return totalExpectedHours / weekCount;
}

/** The student's flags for the week, in table order. */
export function calculateFlags(facts: FlagFacts): FlagItem[] {
  const flags: FlagItem[] = [];
  const { progress, reflection, crm, meetings } = facts;
  const weekCount = Math.max(1, facts.weekCount);

  if (facts.inPlatformSource && progress === null) flags.push({ code: "NO_PLATFORM_RECORD", text: "No learning-platform record" });
  if (progress !== null) {
    const expected = (100 * facts.week) / weekCount;
    if (progress.progress !== null && progress.progress < expected - 20) {
      flags.push({
        code: "BEHIND_PROGRESS",
        text: `Behind on progress (${plainNumber(progress.progress)}% vs ${plainNumber(expected)}% expected)`,
      });
    }
    if (progress.pastDue !== null && progress.pastDue >= 1) flags.push({ code: "PAST_DUE", text: `${plainNumber(progress.pastDue)} past-due assessment(s)` });
  }
  if (reflection === null) flags.push({ code: "NO_REFLECTION", text: "No reflection submitted" });
  else {
    const expected = expectedWeeklyHours(facts.totalExpectedHours, weekCount);
    if (reflection.hours !== null && reflection.hours < expected / 2) {
      flags.push({ code: "LOW_HOURS", text: `Low hours (${plainNumber(reflection.hours)} of ${plainNumber(expected)} expected)` });
    }
    if (reflection.rating !== null && reflection.rating <= 2) flags.push({ code: "LOW_WELLBEING", text: `Low wellbeing (${plainNumber(reflection.rating)}/5)` });
  }
  if (crm && crm.absent > 0) flags.push({ code: "ABSENT_SESSIONS", text: `Absent from ${crm.absent} session(s)` });
  if (crm && crm.enrolled > 0) flags.push({ code: "UNRECORDED_SESSIONS", text: `Attendance not recorded for ${crm.enrolled} session(s)` });
  if (meetings?.mentorAbsent) flags.push({ code: "MISSED_MEETING", text: "Missed mentor meeting" });
  if (meetings?.advisorAbsent) flags.push({ code: "MISSED_MEETING", text: "Missed advisor meeting" });
  return flags;
}

const tableRank = (code: string) => {
  const index = (FLAG_CODES as readonly string[]).indexOf(code);
  return index < 0 ? FLAG_CODES.length : index;
};

/**
 * A week's stored flags after one source recalculated its own: entries of `ownCodes` are
 * replaced by `computed`, the other sources' entries are kept; table order, unknown codes last.
 */
export function mergeFlags<T extends { code: string; text: string }>(existing: readonly T[], computed: readonly T[], ownCodes: readonly string[]): T[] {
  const own = new Set(ownCodes);
  const merged = [...existing.filter((f) => !own.has(f.code)), ...computed];
  // Array.prototype.sort is stable, so equal codes keep their order (mentor before advisor).
  return merged.sort((a, b) => tableRank(a.code) - tableRank(b.code));
}
