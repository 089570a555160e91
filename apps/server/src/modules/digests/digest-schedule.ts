// When the weekly digest is due, in the programme's time zone (the rules document's
// schedule.timeZone), worked out with Intl so summer time moves with the zone: Monday 07:00
// in London is 06:00 UTC in summer and 07:00 UTC in winter. Pure functions: the scheduler
// and its tests call them with any `now`.

import { calendarWeekMonday, dayAfterWeek } from "@tally/contract";

/** When on Monday the digest goes out, programme time. */
export const DIGEST_HOUR = 7;

const FALLBACK_ZONE = "Europe/London";

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter for the zone; an unknown zone falls back to Europe/London rather than failing the run. */
function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-GB", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      return formatFor(FALLBACK_ZONE);
    }
    formats.set(timeZone, format);
  }
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(at: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatFor(timeZone).formatToParts(at)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at.getTime() / 1000) * 1000;
}

const isoDay = (utcMs: number) => new Date(utcMs).toISOString().slice(0, 10);

/** The Monday (YYYY-MM-DD) of the programme week `now` falls in: the key a digest is claimed by. */
export function weekStartOf(now: Date, timeZone: string): string {
  const w = wallClock(now, timeZone);
  return calendarWeekMonday(isoDay(Date.UTC(w.year, w.month - 1, w.day)));
}

/** The instant of `hour`:00 on `day` (YYYY-MM-DD) in the zone. */
export function zonedTime(day: string, hour: number, timeZone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour);
  // Twice: the first guess may sit on the other side of a summer-time change.
  let at = wall - offsetAt(new Date(wall), timeZone);
  at = wall - offsetAt(new Date(at), timeZone);
  return new Date(at);
}

/** When the digest of the week starting `weekStart` is due: that Monday at 07:00 programme time. */
export function digestDueAt(weekStart: string, timeZone: string): Date {
  return zonedTime(weekStart, DIGEST_HOUR, timeZone);
}

/** The first Monday 07:00 (programme time) strictly after `now`. */
export function nextDigestRun(now: Date, timeZone: string): Date {
  const week = weekStartOf(now, timeZone);
  const due = digestDueAt(week, timeZone);
  if (due.getTime() > now.getTime()) return due;
  return digestDueAt(dayAfterWeek(week, 1), timeZone);
}

/** The week whose digest is due at `now` (its Monday 07:00 has passed), or null early on Monday. */
export function dueWeek(now: Date, timeZone: string): string | null {
  const week = weekStartOf(now, timeZone);
  return digestDueAt(week, timeZone).getTime() <= now.getTime() ? week : null;
}
