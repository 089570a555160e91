import { calendarWeekMonday } from "@tally/contract";

/** Calendar arithmetic on YYYY-MM-DD strings, in UTC so the host's time zone never matters. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Monday 00:00 UTC that began the week holding `moment`. */
export function startOfIsoWeek(moment: Date): Date {
  return new Date(`${calendarWeekMonday(moment.toISOString().slice(0, 10))}T00:00:00Z`);
}
