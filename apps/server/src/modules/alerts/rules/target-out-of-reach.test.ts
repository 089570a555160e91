import { DEFAULT_ALERT_SCHEDULE, type AlertRuleParams } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { addDays } from "../../../lib/iso-date.js";
import type { CohortFacts, MeetingFact, StudentFacts } from "./rule-facts.js";
import { targetOutOfReach } from "./target-out-of-reach.js";

// Ten weeks of one mentor and one advisor meeting: 20 meetings, so 80 % allows 4 misses.
const cohort = (latestWeek: number | null): CohortFacts => ({
  cohortId: 1,
  startDate: "2026-09-07",
  endDate: "2026-11-15",
  totalExpectedHours: null,
  latestWeek,
  totalWeeks: 10,
});
const params: AlertRuleParams["target_out_of_reach"] = { targetPercent: 80 };

/** Weeks 1..weeks, mentor on Monday and advisor on Tuesday; marks: "2m" absent, "2m~" late, "2mx" excused. */
function meetings(weeks: number, marks: string[]): MeetingFact[] {
  const out: MeetingFact[] = [];
  for (let week = 1; week <= weeks; week++) {
    for (const [offset, type] of [[0, "mentor"], [1, "advisor"]] as const) {
      const mark = marks.find((m) => m.startsWith(`${week}${type[0]}`));
      out.push({
        date: addDays("2026-09-07", (week - 1) * 7 + offset),
        week,
        meetingType: type,
        status: mark === undefined ? "present" : mark.endsWith("~") ? "late" : "absent",
        excused: mark?.endsWith("x") ?? false,
      });
    }
  }
  return out;
}
const student = (ms: MeetingFact[]): StudentFacts => ({ studentId: 7, meetings: ms, weeks: [], inLatestWeekReports: true, crmEnrolledAfterWeek: false });
const judge = (weeks: number, marks: string[], schedule = DEFAULT_ALERT_SCHEDULE, p = params) =>
  targetOutOfReach(student(meetings(weeks, marks)), cohort(weeks), p, schedule);

describe("target_out_of_reach", () => {
  it("is quiet while the target can still be reached, exactly reaching it included", () => {
    expect(judge(5, [])).toBeNull();
    // 4 misses of 20: attending all the rest ends on exactly 80 %.
    expect(judge(3, ["1m", "1a", "2m", "3a"])).toBeNull();
    expect(judge(6, ["1m", "1a", "2m", "3a"])).toBeNull();
  });

  it("raises at the exact week the fifth miss makes 80 % out of reach, and keeps that week after", () => {
    const marks = ["1m", "1a", "2m", "3a", "4m"];
    expect(judge(3, marks)).toBeNull();
    const verdict = judge(4, marks);
    expect(verdict?.details).toMatchObject({ level: 1, fromWeek: 4, bestPossiblePercent: 75, targetPercent: 80, attendedPercent: 37.5 });
    expect(verdict?.evidence).toBe(
      "Attended 3 of 8 meetings so far (37.5 %); even attending all 12 remaining, at most 75 % against the 80 % target, " +
        "out of reach since week 4 (from 28 Sep). Missed: mentor 7 Sep, advisor 8 Sep, mentor 14 Sep, advisor 22 Sep, mentor 28 Sep",
    );
    // Later weeks all attended: still out of reach, still since week 4.
    expect(judge(7, marks)?.details).toMatchObject({ fromWeek: 4, bestPossiblePercent: 75 });
  });

  it("dates it from the week of the miss when misses come late in the cohort", () => {
    expect(judge(9, ["9m", "9a", "8m", "8a"])).toBeNull();
    expect(judge(9, ["9m", "9a", "8m", "8a", "7m"])?.details.fromWeek).toBe(9);
  });

  it("leaves excused meetings out of the meetings held: they are no miss", () => {
    // 4 misses and 1 excused absence: at most 15 of 19 (78.9 %); were it a miss, 15 of 20 (75 %).
    const marks = ["1m", "1a", "2m", "3a", "4mx"];
    const lower = { targetPercent: 78 };
    expect(judge(4, marks, DEFAULT_ALERT_SCHEDULE, lower)).toBeNull();
    expect(judge(4, marks)?.details).toMatchObject({ bestPossiblePercent: 78.9, fromWeek: 4 });
    expect(judge(4, ["1m", "1a", "2m", "3a", "4m"], DEFAULT_ALERT_SCHEDULE, lower)?.details.bestPossiblePercent).toBe(75);
  });

  it("counts late as attended by default, and as missed when the setting says so", () => {
    const marks = ["1m", "1a", "2m", "3a", "4m~"];
    expect(judge(4, marks)).toBeNull();
    expect(judge(4, marks, { ...DEFAULT_ALERT_SCHEDULE, lateCountsAs: "missed" })?.details.fromWeek).toBe(4);
  });

  it("judges nothing before an import or a meeting", () => {
    expect(targetOutOfReach(student([]), cohort(null), params, DEFAULT_ALERT_SCHEDULE)).toBeNull();
    expect(targetOutOfReach(student([]), cohort(3), params, DEFAULT_ALERT_SCHEDULE)).toBeNull();
  });
});
