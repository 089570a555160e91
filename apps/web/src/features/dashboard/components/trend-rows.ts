import { type TrendPoint, weekFirstDay, weekLastDay } from "@tally/contract";

export interface TrendRow extends Record<string, string | number | null> {
  week: string;
  mentor: number | null;
  advisor: number | null;
}

export const CHOOSE_COHORT =
  "Weeks are numbered per cohort and cohorts start on different dates, so their weeks are not added together. Choose a cohort to see its weekly trend.";

/** The cohort whose weeks are plotted: its start date dates each week (the programme calendar's weeks). */
export interface WeekCalendar {
  start_date: string;
}

/** Attended share: present plus late, kept within 0-100 %; null when the week has no records. */
export function attendedShare(present: number | null, late: number | null): number | null {
  if (present === null && late === null) return null;
  return Math.min(100, Math.max(0, (present ?? 0) + (late ?? 0)));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);

/** The first and last day of the cohort's week, as UTC midnights. */
export function weekDays(calendar: WeekCalendar, week: number): { from: Date; to: Date } {
  return { from: utcDay(weekFirstDay(calendar.start_date, week)), to: utcDay(weekLastDay(calendar.start_date, week)) };
}

/** "16–22 Nov", or "30 Nov–6 Dec" across a month's end. */
export function weekRange(calendar: WeekCalendar, week: number): string {
  const { from, to } = weekDays(calendar, week);
  const month = (d: Date) => MONTHS[d.getUTCMonth()] ?? "";
  if (from.getUTCMonth() === to.getUTCMonth()) return `${from.getUTCDate()}–${to.getUTCDate()} ${month(to)}`;
  return `${from.getUTCDate()} ${month(from)}–${to.getUTCDate()} ${month(to)}`;
}

/** "Week 4 · 16–22 Nov" with a cohort to date it, else "Week 4". */
export function weekLabel(week: number, calendar: WeekCalendar | null): string {
  return calendar ? `Week ${week} · ${weekRange(calendar, week)}` : `Week ${week}`;
}

/** The chart's short tick: "Wk 4 · 16 Nov" (the week's first day), else "Week 4". */
function weekTick(week: number, calendar: WeekCalendar | null): string {
  if (!calendar) return `Week ${week}`;
  const { from } = weekDays(calendar, week);
  return `Wk ${week} · ${from.getUTCDate()} ${MONTHS[from.getUTCMonth()] ?? ""}`;
}

/** Chart rows: one per week, the shown value being present + late per meeting type (spec 9). */
export function toTrendRows(points: TrendPoint[], calendar: WeekCalendar | null = null): TrendRow[] {
  return points.map((p) => ({
    week: weekTick(p.week, calendar),
    mentor: attendedShare(p.mentorPresent, p.mentorLate),
    advisor: attendedShare(p.advisorPresent, p.advisorLate),
  }));
}

export interface TrendAxis {
  domain: [number, number];
  ticks: number[];
  /** False when the axis starts above 0 %: the chart says so. */
  fromZero: boolean;
}

/**
 * The y-axis fitted to the values: from a round number below the lowest to one above the
 * highest (within 0-100 %), ticks 5 or 10 points apart, so a change of a few points shows.
 * The ends are ticks themselves, so the top label sits on the top gridline.
 */
export function fitAxis(values: Array<number | null>): TrendAxis {
  const shown = values.filter((v): v is number => v !== null);
  if (shown.length === 0) return { domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100], fromZero: true };
  const low = Math.min(...shown);
  const high = Math.max(...shown);
  const step = high - low <= 20 ? 5 : 10;
  let bottom = Math.max(0, Math.floor((low - step) / step) * step);
  let top = Math.min(100, Math.ceil((high + step) / step) * step);
  // At least four steps tall, so one flat week does not fill the chart with a single line.
  while ((top - bottom) / step < 4) {
    if (bottom > 0) bottom -= step;
    else if (top < 100) top += step;
    else break;
  }
  const ticks: number[] = [];
  for (let v = bottom; v <= top; v += step) ticks.push(v);
  return { domain: [bottom, top], ticks, fromZero: bottom === 0 };
}

export interface WeekChange {
  week: number;
  mentor: number | null;
  advisor: number | null;
  /** Change in percentage points from the week before; null without a week before (or a value). */
  mentorChange: number | null;
  advisorChange: number | null;
}

/** The newest week's attended shares and their change from the week before it. */
export function latestWeekChange(points: TrendPoint[]): WeekChange | null {
  const last = points.at(-1);
  if (!last) return null;
  const before = points.length > 1 ? points.at(-2) : undefined;
  const mentor = attendedShare(last.mentorPresent, last.mentorLate);
  const advisor = attendedShare(last.advisorPresent, last.advisorLate);
  const prevMentor = before ? attendedShare(before.mentorPresent, before.mentorLate) : null;
  const prevAdvisor = before ? attendedShare(before.advisorPresent, before.advisorLate) : null;
  return {
    week: last.week,
    mentor,
    advisor,
    mentorChange: mentor !== null && prevMentor !== null ? mentor - prevMentor : null,
    advisorChange: advisor !== null && prevAdvisor !== null ? advisor - prevAdvisor : null,
  };
}

/** "−4 pts vs last week", "+2 pts vs last week", "no change vs last week". */
export function changeText(change: number): string {
  if (change === 0) return "no change vs last week";
  return `${change > 0 ? "+" : "−"}${Math.abs(change)} pts vs last week`;
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
