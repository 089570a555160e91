import { type AlertDetails, type AlertSchedule, weekFirstDay } from "@tally/contract";
import type { MeetingFact } from "./rule-facts.js";

// What every rule means by "missed" and "held", and how evidence names meetings, dates and
// figures, written once so that the six rules' evidence reads alike.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-02" → "2 Nov" (the evidence is read within a school year, so no year). */
export function dayMonth(isoDate: string): string {
  const [, month, day] = isoDate.split("-").map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]}`;
}

/**
 * An excused meeting is neither missed nor held: it is left out of every count (the band's
 * numerator and denominator, the target's meetings so far) and skipped in runs.
 */
export function isHeld(meeting: MeetingFact): boolean {
  return !meeting.excused;
}

/** Absent and not excused; late too when the programme counts late as missed. */
export function isMissed(meeting: MeetingFact, schedule: AlertSchedule): boolean {
  if (meeting.excused) return false;
  if (meeting.status === "absent") return true;
  return meeting.status === "late" && schedule.lateCountsAs === "missed";
}

/** "mentor 2 Nov, advisor 9 Nov (late)". */
export function meetingList(meetings: MeetingFact[]): string {
  return meetings
    .map((m) => `${m.meetingType} ${dayMonth(m.date)}${m.status === "late" ? " (late)" : ""}`)
    .join(", ");
}

/** The meetings as the alert's details cite them (only the schema's fields). */
export function citedMeetings(meetings: MeetingFact[]): NonNullable<AlertDetails["meetings"]> {
  return meetings.map(({ date, week, meetingType, status, excused }) => ({ date, week, meetingType, status, excused }));
}

/** A figure rounded to one decimal: 33.333… → 33.3, 25 → 25. */
export function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** "25 %" (the house writes a space before the sign). */
export function percentWords(value: number): string {
  return `${oneDecimal(value)} %`;
}

/** "2 Nov": the first day of a cohort's week (week 1 starts on the cohort's start date). */
export function weekStartWords(week: number, startDate: string): string {
  return dayMonth(weekFirstDay(startDate, week));
}

/** "week 5 (from 2 Nov)". */
export function weekWords(week: number, startDate: string): string {
  return `week ${week} (from ${weekStartWords(week, startDate)})`;
}

/** "1 meeting", "3 meetings". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
