import { DEFAULT_ALERT_SCHEDULE, type AlertRuleParams } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { consecutiveMisses } from "./consecutive-misses.js";
import type { CohortFacts, MeetingFact, StudentFacts } from "./rule-facts.js";

const cohort: CohortFacts = { cohortId: 1, startDate: "2026-09-07", endDate: "2027-06-30", totalExpectedHours: null, latestWeek: 10, totalWeeks: 43 };
const together: AlertRuleParams["consecutive_misses"] = { count: 2, countTogether: true };
const apart: AlertRuleParams["consecutive_misses"] = { count: 2, countTogether: false };

/** "m2 a2- m3x": type (m/a), November day, status (+ present, - absent, ~ late, x excused absent). */
function meetings(spec: string): MeetingFact[] {
  return spec.split(" ").map((token, i) => {
    const [, type, day, mark] = /^([ma])(\d+)([+\-~x])$/.exec(token) ?? [];
    return {
      date: `2026-11-${String(day).padStart(2, "0")}`,
      week: i + 1,
      meetingType: type === "m" ? "mentor" : "advisor",
      status: mark === "+" ? "present" : mark === "~" ? "late" : "absent",
      excused: mark === "x",
    };
  });
}
const student = (spec: string): StudentFacts => ({ studentId: 7, meetings: meetings(spec), weeks: [], inLatestWeekReports: true, crmEnrolledAfterWeek: false });
const judge = (spec: string, params = together, schedule = DEFAULT_ALERT_SCHEDULE) => consecutiveMisses(student(spec), cohort, params, schedule);

describe("consecutive_misses", () => {
  it("is quiet when the latest meetings were attended", () => {
    expect(judge("m2+ a3+ m9+ a10+")).toBeNull();
    // An earlier run that ended does not count: only the current one.
    expect(judge("m2- a3- m9- a10+")).toBeNull();
    expect(judge("m2+ a3+ m9+ a10-")).toBeNull();
  });

  it("raises at count misses in a row, the level being the run's length", () => {
    expect(judge("m2+ a3+ m9- a10-")?.level).toBe(2);
    expect(judge("m2+ a3- m9- a10-")?.details).toMatchObject({ level: 3 });
    expect(judge("m2+ a3- m9- a10-", { count: 4, countTogether: true })).toBeNull();
  });

  it("neither breaks nor extends a run at an excused meeting", () => {
    const verdict = judge("m2+ a3- m9x a10-");
    expect(verdict?.level).toBe(2);
    expect(verdict?.evidence).toBe("Missed 2 meetings in a row: advisor 3 Nov, advisor 10 Nov (excused, not counted: mentor 9 Nov)");
    // An excused meeting alone does not extend a single miss into a run.
    expect(judge("m2+ a3+ m9x a10-")).toBeNull();
    // Nor does an excused latest meeting end the run.
    expect(judge("m2- a3- m9x")?.level).toBe(2);
  });

  it("counts mentor and advisor apart when set so, the longer run being the alert", () => {
    // Together the run is broken by the attended advisor meeting of 10 Nov.
    expect(judge("m2- a3+ m9- a10+")).toBeNull();
    const verdict = judge("m2- a3+ m9- a10+", apart);
    expect(verdict?.level).toBe(2);
    expect(verdict?.evidence).toBe("Missed 2 mentor meetings in a row: mentor 2 Nov, mentor 9 Nov");
    expect(judge("m2- a3- m9- a10- m16- a17+", apart)?.details.meetings?.map((m) => m.meetingType)).toEqual(["mentor", "mentor", "mentor"]);
    expect(judge("m2- a3+ m9+ a10-", apart)).toBeNull();
  });

  it("counts late as attended by default, and as missed when the setting says so", () => {
    expect(judge("m2+ a3~ m9-")).toBeNull();
    const verdict = judge("m2+ a3~ m9-", together, { ...DEFAULT_ALERT_SCHEDULE, lateCountsAs: "missed" });
    expect(verdict?.level).toBe(2);
    expect(verdict?.evidence).toContain("advisor 3 Nov (late), mentor 9 Nov");
  });

  it("is quiet with no meetings", () => {
    expect(judge("m2x")).toBeNull();
    expect(consecutiveMisses({ ...student("m2+"), meetings: [] }, cohort, together, DEFAULT_ALERT_SCHEDULE)).toBeNull();
  });
});
