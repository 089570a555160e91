import { DEFAULT_ALERT_SCHEDULE, type AlertRuleParams } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { addDays } from "../../../lib/iso-date.js";
import { attendanceBand } from "./attendance-band.js";
import type { CohortFacts, MeetingFact, StudentFacts } from "./rule-facts.js";

const cohort: CohortFacts = { cohortId: 1, startDate: "2026-09-07", endDate: "2027-06-30", totalExpectedHours: null, latestWeek: 20, totalWeeks: 43 };
const params: AlertRuleParams["attendance_band"] = { atRiskPercent: 5, chronicPercent: 10, severePercent: 20, minMeetings: 4 };

/** `held` mentor meetings a week apart from 7 Sep, the first `missed` of them absent. */
function meetings(held: number, missed: number, status: MeetingFact["status"] = "absent"): MeetingFact[] {
  return Array.from({ length: held }, (_, i) => ({
    date: addDays("2026-09-07", i * 7),
    week: i + 1,
    meetingType: "mentor" as const,
    status: i < missed ? status : "present",
    excused: false,
  }));
}
const student = (ms: MeetingFact[]): StudentFacts => ({ studentId: 7, meetings: ms, weeks: [], inLatestWeekReports: true, crmEnrolledAfterWeek: false });
const judge = (ms: MeetingFact[], schedule = DEFAULT_ALERT_SCHEDULE) => attendanceBand(student(ms), cohort, params, schedule);

describe("attendance_band", () => {
  it("is satisfied by perfect attendance", () => {
    expect(judge(meetings(20, 0))).toBeNull();
  });

  it("places exactly 5, 10 and 20 % in the higher band, and just below them in the lower", () => {
    // 1 of 21 = 4.8 %, 1 of 20 = 5 %; 2 of 21 = 9.5 %, 2 of 20 = 10 %; 4 of 21 = 19 %, 4 of 20 = 20 %.
    expect(judge(meetings(21, 1))).toBeNull();
    expect(judge(meetings(20, 1))?.details).toMatchObject({ level: 1, band: "at_risk", missedPercent: 5 });
    expect(judge(meetings(21, 2))?.details).toMatchObject({ level: 1, band: "at_risk" });
    expect(judge(meetings(20, 2))?.details).toMatchObject({ level: 2, band: "chronic", missedPercent: 10 });
    expect(judge(meetings(21, 4))?.details).toMatchObject({ level: 2, band: "chronic" });
    expect(judge(meetings(20, 4))?.details).toMatchObject({ level: 3, band: "severe", missedPercent: 20 });
    // The same edges where floating point would round 3/60 × 100 above or below 5.
    expect(judge(meetings(60, 3))?.details.band).toBe("at_risk");
    expect(judge(meetings(60, 6))?.details.band).toBe("chronic");
    expect(judge(meetings(60, 12))?.details.band).toBe("severe");
  });

  it("judges nobody before minMeetings were held", () => {
    expect(judge(meetings(3, 3))).toBeNull();
    expect(judge(meetings(4, 3))?.details.band).toBe("severe");
  });

  it("leaves excused meetings out of both the missed and the held count", () => {
    const ms = meetings(20, 1);
    ms[5] = { ...(ms[5] as MeetingFact), status: "absent", excused: true };
    ms[6] = { ...(ms[6] as MeetingFact), status: "absent", excused: true };
    // 1 missed of 18 held = 5.6 %: still at risk, not chronic (3 of 20 would be 15 %).
    const verdict = judge(ms);
    expect(verdict?.details).toMatchObject({ level: 1, band: "at_risk", missedPercent: 5.6 });
    expect(verdict?.evidence).toContain("Missed 1 of 18 meetings");
  });

  it("counts late as attended by default, and as missed when the setting says so", () => {
    const ms = meetings(20, 4, "late");
    expect(judge(ms)).toBeNull();
    expect(judge(ms, { ...DEFAULT_ALERT_SCHEDULE, lateCountsAs: "missed" })?.details).toMatchObject({ level: 3, band: "severe" });
  });

  it("says in words how many, which band and the dates missed", () => {
    const ms = meetings(12, 0);
    ms[7] = { ...(ms[7] as MeetingFact), status: "absent" };
    ms[8] = { ...(ms[8] as MeetingFact), meetingType: "advisor", status: "absent" };
    ms[9] = { ...(ms[9] as MeetingFact), status: "absent" };
    const verdict = judge(ms);
    expect(verdict?.evidence).toBe("Missed 3 of 12 meetings (25 %, severe): mentor 26 Oct, advisor 2 Nov, mentor 9 Nov");
    expect(verdict?.details.meetings?.map((m) => m.date)).toEqual(["2026-10-26", "2026-11-02", "2026-11-09"]);
  });
});
