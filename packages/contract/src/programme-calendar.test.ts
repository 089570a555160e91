import { describe, expect, it } from "vitest";
import {
  calendarWeekMonday,
  cohortWeekCount,
  cohortWeekOfDay,
  currentCohortWeek,
  dayAfterWeek,
  lastCompletedWeek,
  programmeYearOf,
  programmeYearStart,
  weekDates,
  weekFirstDay,
  weekLastDay,
  weekMostDatesFallIn,
  weekOfDay,
} from "./programme-calendar.js";

// The edges of the one programme calendar (issue 41). Cohorts of 2026 start on Monday 5 January:
const MON_TO_MON = ["2026-01-05", "2026-02-02"] as const; // 28 days between: 4 weeks (the end date is the day after week 4)
const MON_TO_SUN = ["2026-01-05", "2026-02-01"] as const; // 27 days: 4 weeks
const MON_TO_FRI = ["2026-01-05", "2026-01-30"] as const; // 25 days: 4 weeks
const PARTIAL = ["2026-01-05", "2026-02-03"] as const; // 29 days: a fifth, partial week (only its first day is the cohort's)
const SUMMER = ["2026-06-29", "2026-08-10"] as const; // 42 days: 6 weeks, across 1 August

describe("the programme calendar", () => {
  it.each([
    ["Monday to Monday", MON_TO_MON, 4],
    ["Monday to Sunday", MON_TO_SUN, 4],
    ["Monday to Friday", MON_TO_FRI, 4],
    ["a last partial week", PARTIAL, 5],
    ["across 1 August", SUMMER, 6],
    ["one day", ["2026-01-05", "2026-01-06"], 1],
    ["no days (at least 1)", ["2026-01-05", "2026-01-05"], 1],
    ["end before start (at least 1)", ["2026-01-05", "2025-12-01"], 1],
    ["a date that is none", ["2026-01-05", "not a date"], 1],
  ] as const)("counts the weeks of a cohort %s: ceil((end − start) / 7), at least 1", (_, [start, end], weeks) => {
    expect(cohortWeekCount(start, end)).toBe(weeks);
  });

  it.each([
    // [day, day number, week of the day, the cohort week (Monday-to-Monday cohort) or null]
    ["2026-01-04", -1, 0, null],
    ["2026-01-05", 0, 1, 1],
    ["2026-01-11", 6, 1, 1],
    ["2026-01-12", 7, 2, 2],
    ["2026-01-13", 8, 2, 2],
    ["2026-02-01", 27, 4, 4],
    ["2026-02-02", 28, 5, null], // the end date of a Monday-to-Monday cohort is the day after its last week
  ] as const)("puts %s (day %i) in week %i", (day, _, week, inCohort) => {
    expect(weekOfDay(MON_TO_MON[0], day)).toBe(week);
    expect(cohortWeekOfDay(...MON_TO_MON, day)).toBe(inCohort);
  });

  it.each([
    // [cohort, day, its week in the cohort]
    [PARTIAL, "2026-02-02", 5],
    [PARTIAL, "2026-02-03", 5], // the end date, in the partial week
    [PARTIAL, "2026-02-08", 5], // a week is always 7 days, the last too
    [PARTIAL, "2026-02-09", null],
    [MON_TO_FRI, "2026-01-30", 4],
    [MON_TO_FRI, "2026-02-01", 4],
    [SUMMER, "2026-07-31", 5],
    [SUMMER, "2026-08-01", 5],
    [SUMMER, "2026-08-02", 5],
    [SUMMER, "2026-08-03", 6],
    [SUMMER, "2026-08-10", null],
    [["2026-03-23", "2026-04-20"], "2026-03-30", 2], // across the spring clock change: whole days, in UTC
  ] as const)("puts a day of cohort %j: %s in week %j", ([start, end], day, week) => {
    expect(cohortWeekOfDay(start, end, day)).toBe(week);
  });

  it.each([
    [1, "2026-01-05", "2026-01-11"],
    [2, "2026-01-12", "2026-01-18"],
    [4, "2026-01-26", "2026-02-01"],
    [5, "2026-02-02", "2026-02-08"],
    [0, "2025-12-29", "2026-01-04"], // the week before the cohort
  ] as const)("dates week %i: start + 7(N−1) to start + 7N − 1", (week, first, last) => {
    expect(weekFirstDay("2026-01-05", week)).toBe(first);
    expect(weekLastDay("2026-01-05", week)).toBe(last);
    expect(weekDates("2026-01-05", week)).toEqual({ number: week, start: first, end: last });
    expect(weekOfDay("2026-01-05", first)).toBe(week);
    expect(weekOfDay("2026-01-05", last)).toBe(week);
  });

  it("says a week ended from the day after its last day", () => {
    expect(dayAfterWeek("2026-06-29", 3)).toBe("2026-07-20");
    expect(dayAfterWeek(MON_TO_MON[0], 4)).toBe(MON_TO_MON[1]);
  });

  it.each([
    // [cohort, today, current week, last completed week]
    [SUMMER, "2026-06-01", 1, 1], // before the start
    [SUMMER, "2026-06-29", 1, 1], // day 0
    [SUMMER, "2026-07-05", 1, 1], // day 6: week 1 not over yet
    [SUMMER, "2026-07-06", 2, 1], // day 7, the cohort's 8th day
    [SUMMER, "2026-07-13", 3, 2],
    [SUMMER, "2026-07-15", 3, 2],
    [SUMMER, "2026-07-19", 3, 2],
    [SUMMER, "2026-07-20", 4, 3],
    [SUMMER, "2026-07-31", 5, 4], // 31 July
    [SUMMER, "2026-08-01", 5, 4], // 1 August: a new programme year, the same cohort week
    [SUMMER, "2026-08-10", 6, 6], // the end date: the last week is over
    [SUMMER, "2026-11-25", 6, 6], // after the end
    [MON_TO_MON, "2026-02-02", 4, 4],
    [PARTIAL, "2026-02-03", 5, 4],
    [["2026-01-05", "not a date"], "2026-01-20", 1, 1],
  ] as const)("on a day of cohort %j (%s) is in week %i, and week %i is the last completed", ([start, end], today, current, completed) => {
    expect(currentCohortWeek(start, end, today)).toBe(current);
    expect(lastCompletedWeek(start, end, today)).toBe(completed);
  });

  it.each([
    ["most dates in one week", ["2026-07-14", "2026-07-16", "2026-07-08"], { week: 3, dateCount: 2 }],
    ["a tie goes to the earlier week", ["2026-07-08", "2026-07-14"], { week: 2, dateCount: 1 }],
    ["31 July and 1 August are one week", ["2026-07-31", "2026-08-01", "2026-07-20"], { week: 5, dateCount: 2 }],
    ["most dates before the cohort", ["2026-06-20", "2026-06-21", "2026-07-01"], null],
    ["a file of another year", ["2025-07-14"], null],
    ["no dates", [], null],
  ] as const)("finds the week a file's dates are of: %s", (_, dates, expected) => {
    expect(weekMostDatesFallIn(...SUMMER, dates)).toEqual(expected);
  });

  it.each([
    ["2026-07-31", 2025, "2025-08-01"],
    ["2026-08-01", 2026, "2026-08-01"],
    ["2026-12-31", 2026, "2026-08-01"],
    ["2027-01-01", 2026, "2026-08-01"],
  ] as const)("puts %s in the programme year %i, which starts on %s (1 August)", (day, year, start) => {
    expect(programmeYearOf(day)).toBe(year);
    expect(programmeYearStart(day)).toBe(start);
  });

  it.each([
    ["2026-12-07", "2026-12-07"], // a Monday
    ["2026-12-13", "2026-12-07"], // a Sunday
    ["2026-12-14", "2026-12-14"],
    ["2026-01-01", "2025-12-29"], // across the year's end
    ["2026-03-29", "2026-03-23"], // the spring clock change in Europe
  ] as const)("puts %s in the calendar week (Monday to Sunday) from %s", (day, monday) => {
    expect(calendarWeekMonday(day)).toBe(monday);
  });

  it("agrees with itself on every day of a cohort: the flag uploader's week, a file's week and a week's dates", () => {
    for (const [start, end] of [MON_TO_MON, MON_TO_SUN, MON_TO_FRI, PARTIAL, SUMMER]) {
      const weeks = cohortWeekCount(start, end);
      const days: string[] = [];
      for (let d = new Date(`${start}T00:00:00Z`); d.toISOString().slice(0, 10) <= weekLastDay(start, weeks); d.setUTCDate(d.getUTCDate() + 1)) {
        days.push(d.toISOString().slice(0, 10));
      }
      expect(days).toHaveLength(7 * weeks);
      for (const day of days) {
        const week = currentCohortWeek(start, end, day);
        expect(cohortWeekOfDay(start, end, day)).toBe(week);
        expect(weekMostDatesFallIn(start, end, [day])?.week).toBe(week);
        expect(weekFirstDay(start, week) <= day && day <= weekLastDay(start, week)).toBe(true);
        expect(lastCompletedWeek(start, end, day)).toBe(Math.max(1, week - 1));
      }
    }
  });
});
