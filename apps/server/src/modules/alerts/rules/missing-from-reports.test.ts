import { DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { missingFromReports } from "./missing-from-reports.js";
import type { CohortFacts, StudentFacts } from "./rule-facts.js";

const cohort = (latestWeek: number | null): CohortFacts => ({
  cohortId: 1,
  startDate: "2026-09-07",
  endDate: "2027-06-30",
  totalExpectedHours: null,
  latestWeek,
  totalWeeks: 43,
});
const student = (inLatestWeekReports: boolean, crmEnrolledAfterWeek: boolean): StudentFacts => ({
  studentId: 7,
  meetings: [],
  weeks: [],
  inLatestWeekReports,
  crmEnrolledAfterWeek,
});
const judge = (s: StudentFacts, latestWeek: number | null = 8, crmEnrolled = true) =>
  missingFromReports(s, cohort(latestWeek), { crmEnrolled }, DEFAULT_ALERT_SCHEDULE);

describe("missing_from_reports", () => {
  it("is quiet for a student in the week's reports with no CRM session left enrolled", () => {
    expect(judge(student(true, false))).toBeNull();
  });

  it("raises for a student in none of the latest week's files, naming the week", () => {
    const verdict = judge(student(false, false));
    expect(verdict?.details).toEqual({ level: 1, weeks: [8] });
    expect(verdict?.evidence).toBe("In none of the reports of week 8 (from 26 Oct)");
  });

  it("says nothing before a week was imported", () => {
    expect(judge(student(false, true), null)).toBeNull();
  });

  it("raises for a CRM session still Enrolled after the week, only when the rule asks for it", () => {
    const verdict = judge(student(true, true));
    expect(verdict?.level).toBe(1);
    expect(verdict?.evidence).toBe('CRM session still "Enrolled" after week 8 (from 26 Oct) ended');
    expect(judge(student(true, true), 8, false)).toBeNull();
  });

  it("is level 2 when both hold, and says both", () => {
    const verdict = judge(student(false, true));
    expect(verdict?.level).toBe(2);
    expect(verdict?.evidence).toBe('In none of the reports of week 8 (from 26 Oct); CRM session still "Enrolled" after week 8 (from 26 Oct) ended');
    expect(judge(student(false, true), 8, false)?.level).toBe(1);
  });
});
