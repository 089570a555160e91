import { FLAG_CODES, type FlagCode, type FlagItem, flag } from "@tally/contract";

// The "Flag rules" table of report-formats.md: which flags a student gets for one week, and
// how a new calculation is merged with the flags another source already stored. The codes and
// texts are the contract's (packages/contract/src/flags.ts), which the demo seed writes too.

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

  if (facts.inPlatformSource && progress === null) flags.push(flag("NO_PLATFORM_RECORD"));
  if (progress !== null) {
    const expected = (100 * facts.week) / weekCount;
    if (progress.progress !== null && progress.progress < expected - 20) flags.push(flag("BEHIND_PROGRESS", progress.progress, expected));
    if (progress.pastDue !== null && progress.pastDue >= 1) flags.push(flag("PAST_DUE", progress.pastDue));
  }
  if (reflection === null) flags.push(flag("NO_REFLECTION"));
  else {
    const expected = expectedWeeklyHours(facts.totalExpectedHours, weekCount);
    if (reflection.hours !== null && reflection.hours < expected / 2) flags.push(flag("LOW_HOURS", reflection.hours, expected));
    if (reflection.rating !== null && reflection.rating <= 2) flags.push(flag("LOW_WELLBEING", reflection.rating));
  }
  if (crm && crm.absent > 0) flags.push(flag("ABSENT_SESSIONS", crm.absent));
  if (crm && crm.enrolled > 0) flags.push(flag("UNRECORDED_SESSIONS", crm.enrolled));
  if (meetings?.mentorAbsent) flags.push(flag("MISSED_MEETING", "mentor"));
  if (meetings?.advisorAbsent) flags.push(flag("MISSED_MEETING", "advisor"));
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
