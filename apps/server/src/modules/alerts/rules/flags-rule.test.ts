import type { AlertRuleParams } from "@tally/contract";
import { DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { flagsRule } from "./flags-rule.js";
import type { CohortFacts, StudentFacts, WeekFact } from "./rule-facts.js";

const cohort = (latestWeek: number | null): CohortFacts => ({
  cohortId: 1,
  startDate: "2026-09-07",
  endDate: "2027-06-30",
  totalExpectedHours: null,
  latestWeek,
  totalWeeks: 43,
});
const params: AlertRuleParams["flags"] = { perWeek: 3, sameCodeWeeks: 2 };
const TEXTS: Record<string, string> = { SAFE: "safeguarding concern", LATE: "late to school", HW: "homework missing", BEH: "behaviour" };

/** { 5: ["SAFE", "HW"] } → week rows with those flags. */
function student(flags: Record<number, string[]>): StudentFacts {
  const weeks: WeekFact[] = Object.entries(flags).map(([week, codes]) => ({
    week: Number(week),
    flags: codes.map((code) => ({ code, text: TEXTS[code] ?? code })),
    hoursReported: null,
  }));
  return { studentId: 7, meetings: [], weeks, inLatestWeekReports: true, crmEnrolledAfterWeek: false };
}
const judge = (flags: Record<number, string[]>, latestWeek: number | null = 5, p = params) =>
  flagsRule(student(flags), cohort(latestWeek), p, DEFAULT_ALERT_SCHEDULE);

describe("flags", () => {
  it("is quiet without flags, or with fewer than K in the latest week and no repeated code", () => {
    expect(judge({})).toBeNull();
    expect(judge({ 5: [] })).toBeNull();
    expect(judge({ 5: ["SAFE", "HW"] })).toBeNull();
    expect(judge({ 3: ["SAFE"], 5: ["SAFE"] })).toBeNull();
    expect(judge({ 5: ["SAFE", "HW", "LATE"] }, null)).toBeNull();
  });

  it("raises at K flags in the latest week, the level being the count, naming the flags and the week", () => {
    const verdict = judge({ 5: ["SAFE", "HW", "LATE"] });
    expect(verdict?.details).toMatchObject({ level: 3, weeks: [5] });
    expect(verdict?.details.flags?.map((f) => f.code)).toEqual(["HW", "LATE", "SAFE"]);
    expect(verdict?.evidence).toBe("Flagged: 3 flags in week 5 (from 5 Oct): SAFE (safeguarding concern), HW (homework missing), LATE (late to school)");
    expect(judge({ 5: ["SAFE", "HW", "LATE", "BEH"] })?.level).toBe(4);
    // K flags in an earlier week are not this week's news.
    expect(judge({ 4: ["SAFE", "HW", "LATE"], 5: [] })).toBeNull();
  });

  it("raises for the same code in M weeks in a row up to the latest week, the level being the weeks", () => {
    const verdict = judge({ 3: ["HW"], 4: ["HW", "LATE"], 5: ["HW"] });
    expect(verdict?.details).toMatchObject({ level: 3, weeks: [3, 4, 5] });
    expect(verdict?.details.flags).toEqual([
      { week: 3, code: "HW", text: "homework missing" },
      { week: 4, code: "HW", text: "homework missing" },
      { week: 5, code: "HW", text: "homework missing" },
    ]);
    expect(verdict?.evidence).toBe("Flagged: HW (homework missing) 3 weeks in a row: weeks 3, 4, 5 (from 21 Sep)");
    // A week without the code breaks the run; a run that ended before the latest week does not count.
    expect(judge({ 2: ["HW"], 3: ["HW"], 5: ["HW"] })).toBeNull();
    expect(judge({ 3: ["HW"], 4: ["HW"], 5: ["LATE"] })).toBeNull();
    expect(judge({ 4: ["HW"], 5: ["HW"] }, 5, { perWeek: 3, sameCodeWeeks: 3 })).toBeNull();
  });

  it("takes the higher level when both hold and names both", () => {
    const verdict = judge({ 2: ["SAFE"], 3: ["SAFE"], 4: ["SAFE"], 5: ["SAFE", "HW", "LATE"] });
    expect(verdict?.level).toBe(4);
    expect(verdict?.details.weeks).toEqual([2, 3, 4, 5]);
    expect(verdict?.evidence).toContain("3 flags in week 5 (from 5 Oct)");
    expect(verdict?.evidence).toContain("SAFE (safeguarding concern) 4 weeks in a row: weeks 2, 3, 4, 5 (from 14 Sep)");
  });
});
