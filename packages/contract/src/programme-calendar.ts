// The programme calendar: which week of a cohort a day is in, written once for every screen,
// rule, import and export (issue 41 found two formulas in seven files that disagreed).
//
// A cohort's weeks are counted from its start date: week N is the days start + 7(N−1) to
// start + 7N − 1, so days 0–6 are week 1 and day 7 is week 2, whatever weekday the cohort
// starts on. Its week count is the spec's (section 9): ceil(days / 7), at least 1, where days
// is end − start, the days *between* the two dates. The end date is not counted as a day of its
// own, so a Monday-to-Monday cohort of 28 days has 4 weeks (its end date is the day after week
// 4), a Monday-to-Sunday or Monday-to-Friday one 4 as well, and only a cohort that runs into a
// further week (Monday to the Tuesday four weeks on) has a fifth.
//
// Days are calendar dates (YYYY-MM-DD) and the arithmetic runs in UTC, so the host's time zone
// never moves a day into another week; callers turn a moment into a day first (the server in
// UTC, the browser in the person's own time zone).

const DAY_MS = 86_400_000;
const DAYS_PER_WEEK = 7;
/** Programme years run from 1 August to 31 July, like the school year (month 8). */
const PROGRAMME_YEAR_FIRST_MONTH = 8;

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `from` to `to` (negative when `to` is earlier; NaN when either is no date). */
function daysFrom(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The cohort's weeks: ceil((end − start in days) / 7), at least 1 (1 when a date does not parse). */
export function cohortWeekCount(startDate: string, endDate: string): number {
  const days = daysFrom(startDate, endDate);
  if (!Number.isFinite(days)) return 1;
  return Math.max(1, Math.ceil(days / DAYS_PER_WEEK));
}

/**
 * The week `day` is in, counted from the cohort's start: 1 for days 0–6, 2 for days 7–13…;
 * 0 or less before the start, above the week count after the cohort's weeks (NaN for no date).
 */
export function weekOfDay(startDate: string, day: string): number {
  return Math.floor(daysFrom(startDate, day) / DAYS_PER_WEEK) + 1;
}

/** The cohort week `day` is in, or null when it is in none of them (before the start, after the last week). */
export function cohortWeekOfDay(startDate: string, endDate: string, day: string): number | null {
  const week = weekOfDay(startDate, day);
  return week >= 1 && week <= cohortWeekCount(startDate, endDate) ? week : null;
}

/** The first day of week `week`: start + 7(week − 1). */
export function weekFirstDay(startDate: string, week: number): string {
  return dayOfNumber(dayNumber(startDate) + DAYS_PER_WEEK * (week - 1));
}

/** The last day of week `week`: start + 7·week − 1. */
export function weekLastDay(startDate: string, week: number): string {
  return dayOfNumber(dayNumber(startDate) + DAYS_PER_WEEK * week - 1);
}

/** A week with its first and last day, as the import's preview and form show it. */
export function weekDates(startDate: string, week: number): { number: number; start: string; end: string } {
  return { number: week, start: weekFirstDay(startDate, week), end: weekLastDay(startDate, week) };
}

/** The day after the week's last day: from then on the week has ended (its reports are due). */
export function dayAfterWeek(startDate: string, week: number): string {
  return weekFirstDay(startDate, week + 1);
}

const clampToCohort = (week: number, startDate: string, endDate: string) =>
  Number.isFinite(week) ? Math.min(cohortWeekCount(startDate, endDate), Math.max(1, week)) : 1;

/**
 * The week the cohort is in on `today`, at least 1 (before it starts) and at most its week
 * count (after it ends): the flag uploader's default week, a follow-up note's week.
 */
export function currentCohortWeek(startDate: string, endDate: string, today: string): number {
  return clampToCohort(weekOfDay(startDate, today), startDate, endDate);
}

/**
 * The last week that has ended by `today` (its reports are in once it is over): 1 before any
 * has, the last week once the cohort's weeks have: the weekly import's default week.
 */
export function lastCompletedWeek(startDate: string, endDate: string, today: string): number {
  return clampToCohort(weekOfDay(startDate, today) - 1, startDate, endDate);
}

/**
 * The week most of `dates` fall in (ties: the earlier week) with how many fall in it, or null
 * when there are none or that week is not one of the cohort's (the file is of another time):
 * the week a file's meeting dates are of.
 */
export function weekMostDatesFallIn(
  startDate: string,
  endDate: string,
  dates: readonly string[],
): { week: number; dateCount: number } | null {
  const counts = new Map<number, number>();
  for (const day of dates) {
    const week = weekOfDay(startDate, day);
    if (Number.isFinite(week)) counts.set(week, (counts.get(week) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (!best || best[0] < 1 || best[0] > cohortWeekCount(startDate, endDate)) return null;
  return { week: best[0], dateCount: best[1] };
}

/**
 * The Monday that begins the calendar week (Monday to Sunday) holding `day`: the weeks that are
 * not a cohort's (the weekly digest's, the dashboard's week-over-week change).
 */
export function calendarWeekMonday(day: string): string {
  const n = dayNumber(day);
  const sinceMonday = (new Date(n * DAY_MS).getUTCDay() + 6) % DAYS_PER_WEEK; // Monday 0 … Sunday 6
  return dayOfNumber(n - sinceMonday);
}

/** The programme year `day` is in, named by the calendar year it starts in (2025 for 2025–26). */
export function programmeYearOf(day: string): number {
  const year = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= PROGRAMME_YEAR_FIRST_MONTH ? year : year - 1;
}

/** The first day (1 August, YYYY-MM-DD) of the programme year holding `day`. */
export function programmeYearStart(day: string): string {
  return `${programmeYearOf(day)}-${String(PROGRAMME_YEAR_FIRST_MONTH).padStart(2, "0")}-01`;
}
