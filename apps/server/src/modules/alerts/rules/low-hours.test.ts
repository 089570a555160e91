import { DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { lowHours } from "./low-hours.js";
import type { CohortFacts, StudentFacts } from "./rule-facts.js";

// 100 hours over 10 weeks: 50 expected by the end of week 5; 60 % of that is 30, half of it 15.
const cohort = (latestWeek: number | null, totalExpectedHours: number | null = 100): CohortFacts => ({
  cohortId: 1,
  startDate: "2026-09-07",
  endDate: "2026-11-15",
  totalExpectedHours,
  latestWeek,
  totalWeeks: 10,
});
/** Hours reported per week 1, 2, … (null: no figure that week). */
const student = (hours: Array<number | null>): StudentFacts => ({
  studentId: 7,
  meetings: [],
  weeks: hours.map((hoursReported, i) => ({ week: i + 1, flags: [], hoursReported })),
  inLatestWeekReports: true,
  crmEnrolledAfterWeek: false,
});
const judge = (hours: Array<number | null>, c = cohort(5)) => lowHours(student(hours), c, { percentOfExpected: 60 }, DEFAULT_ALERT_SCHEDULE);

describe("low_hours", () => {
  it("is quiet at or above the threshold", () => {
    expect(judge([10, 10, 10, 10, 10])).toBeNull();
    expect(judge([6, 6, 6, 6, 6])).toBeNull();
  });

  it("raises below X % of the hours expected to date, level 2 under half of that", () => {
    const verdict = judge([6, 6, 6, 6, 5.9]);
    expect(verdict?.details).toEqual({ level: 1, hoursReported: 29.9, hoursExpected: 50, weeks: [5] });
    expect(verdict?.evidence).toBe("Reported 29.9 h of the 50 h expected by the end of week 5 (from 5 Oct) (59.8 %, under 60 %)");
    expect(judge([3, 3, 3, 3, 3])?.level).toBe(1);
    expect(judge([3, 3, 3, 3, 2.9])?.level).toBe(2);
  });

  it("counts a week without a figure as no hours, and weeks after the latest not at all", () => {
    expect(judge([7, null, 7, 7, 7])?.details).toMatchObject({ level: 1, hoursReported: 28 });
    expect(judge([6, 6, 6, 6, 6, 40])).toBeNull();
    expect(judge([0, 0, 0, 0, 0, 40])?.level).toBe(2);
  });

  it("judges nothing without expected hours or before an import", () => {
    expect(judge([0, 0, 0, 0, 0], cohort(5, null))).toBeNull();
    expect(judge([], cohort(null))).toBeNull();
  });
});
