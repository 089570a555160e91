// The flags of report-formats.md ("Flag rules"): their codes, in the table's order, and their
// texts. The server's flag rules and the demo seed write every flag text with flagText, so a
// text is written in one place.

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

/** A number as the flag texts write it: at most one decimal, no trailing zeros (50, 42.9, 7.5). */
export function plainNumber(n: number): string {
  const rounded = Math.round(n * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Each flag's text, from the figures it names. */
export const flagText = {
  NO_PLATFORM_RECORD: () => "No learning-platform record",
  BEHIND_PROGRESS: (progress: number, expected: number) =>
    `Behind on progress (${plainNumber(progress)}% vs ${plainNumber(expected)}% expected)`,
  PAST_DUE: (assessments: number) => `${plainNumber(assessments)} past-due assessment(s)`,
  NO_REFLECTION: () => "No reflection submitted",
  LOW_HOURS: (hours: number, expected: number) => `Low hours (${plainNumber(hours)} of ${plainNumber(expected)} expected)`,
  LOW_WELLBEING: (rating: number) => `Low wellbeing (${plainNumber(rating)}/5)`,
  ABSENT_SESSIONS: (sessions: number) => `Absent from ${sessions} session(s)`,
  UNRECORDED_SESSIONS: (sessions: number) => `Attendance not recorded for ${sessions} session(s)`,
  MISSED_MEETING: (meetingType: "mentor" | "advisor") => `Missed ${meetingType} meeting`,
} satisfies Record<FlagCode, (...figures: never[]) => string>;

/** One flag: its code and its text. */
export interface FlagItem {
  code: FlagCode;
  text: string;
}

/** The flag `code` with its text: flag("LOW_WELLBEING", 2) → { code, text: "Low wellbeing (2/5)" }. */
export function flag<C extends FlagCode>(code: C, ...figures: Parameters<(typeof flagText)[C]>): FlagItem & { code: C } {
  const text = (flagText[code] as (...args: typeof figures) => string)(...figures);
  return { code, text };
}
