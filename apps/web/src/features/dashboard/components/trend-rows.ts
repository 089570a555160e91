import type { TrendPoint } from "@tally/contract";

export interface TrendRow extends Record<string, string | number | null> {
  week: string;
  mentor: number | null;
  advisor: number | null;
}

/** Attended share: present plus late, kept within 0-100 %; null when the week has no records. */
export function attendedShare(present: number | null, late: number | null): number | null {
  if (present === null && late === null) return null;
  return Math.min(100, Math.max(0, (present ?? 0) + (late ?? 0)));
}

/** Chart rows: one per week, the shown value being present + late per meeting type (spec 9). */
export function toTrendRows(points: TrendPoint[]): TrendRow[] {
  return points.map((p) => ({
    week: `Week ${p.week}`,
    mentor: attendedShare(p.mentorPresent, p.mentorLate),
    advisor: attendedShare(p.advisorPresent, p.advisorLate),
  }));
}

function average(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return Math.round(present.reduce((a, b) => a + b, 0) / present.length);
}

/** One sentence describing the chart for screen readers. */
export function trendSummary(rows: TrendRow[]): string {
  const first = rows[0]?.week;
  const last = rows.at(-1)?.week;
  const parts = [`Attendance trend, present plus late, from ${first} to ${last}.`];
  const mentor = average(rows.map((r) => r.mentor));
  const advisor = average(rows.map((r) => r.advisor));
  if (mentor !== null) parts.push(`Mentor meetings average ${mentor}%.`);
  if (advisor !== null) parts.push(`Advisor meetings average ${advisor}%.`);
  parts.push("The attendance table below lists every week.");
  return parts.join(" ");
}
