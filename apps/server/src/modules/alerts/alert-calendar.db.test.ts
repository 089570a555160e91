import { type AlertRule, cohortWeekCount } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildWeeklyData } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { evaluateAlerts, loadCohort } from "./alert-evaluation.service.js";

// The alert rules count a cohort's weeks as every other screen does, by the programme calendar
// (issue 41): 2026-01-05 to 2026-02-02 (Monday to Monday, 28 days) is 4 weeks on the admin,
// import and flag screens, and so in the low-hours rule's expected hours and the target rule's
// remaining meetings (they counted 5 before: the end date as one more day).

const database = useTestDatabase();
const db = () => database.db;
const START = "2026-01-05";
const END = "2026-02-02";
let cohortId: number;
let short: number;
let misses: number;

const alertOf = (studentId: number, rule: AlertRule) =>
  db().selectFrom("alerts").select(["level", "evidence", "details"]).where("student_id", "=", studentId).where("rule", "=", rule).executeTakeFirst();

beforeAll(async () => {
  const school = await buildSchool(db());
  cohortId = (await buildCohort(db(), { startDate: START, endDate: END, totalExpectedHours: 80 })).id;
  short = (await buildStudent(db(), { schoolId: school.id, cohortIds: [cohortId] })).id;
  misses = (await buildStudent(db(), { schoolId: school.id, cohortIds: [cohortId] })).id;
  // Two weeks reported: 11 h each for one student; the other reported the expected 20 h a week.
  await buildWeeklyData(db(), [
    { studentId: short, cohortId, weekNumber: 1, weekStart: "2026-01-05", hoursReported: 11 },
    { studentId: short, cohortId, weekNumber: 2, weekStart: "2026-01-12", hoursReported: 11 },
    { studentId: misses, cohortId, weekNumber: 1, weekStart: "2026-01-05", hoursReported: 20 },
    { studentId: misses, cohortId, weekNumber: 2, weekStart: "2026-01-12", hoursReported: 20 },
  ]);
  // One meeting missed in each of weeks 1 and 2 (not in a row with nothing between: mentor, then advisor).
  const meeting = (studentId: number, weekNumber: number, meetingType: "mentor" | "advisor", date: string, status: "present" | "absent") =>
    ({ studentId, cohortId, schoolId: school.id, weekNumber, meetingType, date, status }) as const;
  await buildAttendance(db(), [
    meeting(short, 1, "mentor", "2026-01-06", "present"),
    meeting(short, 1, "advisor", "2026-01-08", "present"),
    meeting(short, 2, "mentor", "2026-01-13", "present"),
    meeting(short, 2, "advisor", "2026-01-15", "present"),
    meeting(misses, 1, "mentor", "2026-01-06", "absent"),
    meeting(misses, 1, "advisor", "2026-01-08", "present"),
    meeting(misses, 2, "mentor", "2026-01-13", "present"),
    meeting(misses, 2, "advisor", "2026-01-15", "absent"),
  ]);
  await evaluateAlerts(db(), { cohortIds: [cohortId], now: new Date("2026-01-19T09:00:00Z") });
});

describe("alert rules on the programme calendar", () => {
  it("count a Monday-to-Monday cohort's weeks as the admin, import and flag screens do: 4", async () => {
    const loaded = await loadCohort(db(), cohortId);
    expect(loaded?.cohort).toMatchObject({ totalWeeks: 4, latestWeek: 2 });
    expect(cohortWeekCount(START, END)).toBe(4);
  });

  it("expect 80 h / 4 weeks = 20 h a week in the low-hours rule: 22 h by week 2 is under 60 % of 40 h", async () => {
    const alert = await alertOf(short, "low_hours");
    expect(alert?.evidence).toBe("Reported 22 h of the 40 h expected by the end of week 2 (from 12 Jan) (55 %, under 60 %)");
    expect(alert).toMatchObject({ level: 1 });
    expect(await alertOf(misses, "low_hours")).toBeUndefined();
  });

  it("count 2 weeks × 2 meetings remaining in the target rule: 2 of 4 attended can reach at most 75 %", async () => {
    const alert = await alertOf(misses, "target_out_of_reach");
    expect(alert?.evidence).toMatch(/^Attended 2 of 4 meetings so far \(50 %\); even attending all 4 remaining, at most 75 % against the 80 % target, out of reach since week 2 \(from 12 Jan\)\./);
    expect(await alertOf(short, "target_out_of_reach")).toBeUndefined();
  });
});
