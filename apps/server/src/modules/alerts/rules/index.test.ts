import { ALERT_RULES, type AlertRuleParams, alertDetailsSchema, DEFAULT_ALERT_RULES, DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { addDays } from "../../../lib/iso-date.js";
import { RULE_EVALUATORS } from "./index.js";
import type { CohortFacts, MeetingFact, StudentFacts } from "./rule-facts.js";

const cohort: CohortFacts = { cohortId: 1, startDate: "2026-09-07", endDate: "2026-11-15", totalExpectedHours: 100, latestWeek: 6, totalWeeks: 10 };

/** A student every rule raises with its default params: all meetings missed, flagged, no hours, not in the reports. */
const troubled: StudentFacts = {
  studentId: 7,
  meetings: Array.from({ length: 6 }, (_, i): MeetingFact[] => [
    { date: addDays("2026-09-07", i * 7), week: i + 1, meetingType: "mentor", status: "absent", excused: false },
    { date: addDays("2026-09-08", i * 7), week: i + 1, meetingType: "advisor", status: "absent", excused: false },
  ]).flat(),
  weeks: Array.from({ length: 6 }, (_, i) => ({
    week: i + 1,
    flags: ["SAFE", "HW", "LATE"].map((code) => ({ code, text: code.toLowerCase() })),
    hoursReported: 0,
  })),
  inLatestWeekReports: false,
  crmEnrolledAfterWeek: true,
};
const fine: StudentFacts = {
  ...troubled,
  meetings: troubled.meetings.map((m) => ({ ...m, status: "present" })),
  weeks: troubled.weeks.map((w) => ({ ...w, flags: [], hoursReported: 10 })),
  inLatestWeekReports: true,
  crmEnrolledAfterWeek: false,
};

function judge<R extends (typeof ALERT_RULES)[number]>(rule: R, student: StudentFacts) {
  const params = DEFAULT_ALERT_RULES.find((r) => r.rule === rule)?.params as AlertRuleParams[R];
  return RULE_EVALUATORS[rule](student, cohort, params, DEFAULT_ALERT_SCHEDULE);
}

describe("RULE_EVALUATORS", () => {
  it.each(ALERT_RULES)("%s raises a troubled student with the default params, in words and with schema-valid details", (rule) => {
    const verdict = judge(rule, troubled);
    expect(verdict).not.toBeNull();
    expect(verdict?.level).toBeGreaterThan(0);
    expect(verdict?.details.level).toBe(verdict?.level);
    expect(verdict?.evidence.length).toBeGreaterThan(10);
    expect(alertDetailsSchema.strict().safeParse(verdict?.details).success).toBe(true);
  });

  it.each(ALERT_RULES)("%s says nothing of a student with nothing wrong", (rule) => {
    expect(judge(rule, fine)).toBeNull();
  });
});
