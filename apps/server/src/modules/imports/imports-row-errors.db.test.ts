import type { ImportCommit, ImportPreview } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, postImport } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// A bad value in a progress or reflection row is an error for that value only (report-formats.md,
// "Parsing rules"): the student is still in that report, the unreadable value decides no flag and
// the row's other values count. Week 3 of 6 with 120 hours: progress is expected at 50 % (behind
// below 30 %), 20 hours a week (low below 10).

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
let cohortId = 0;

const MEETING = `First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status
Lena,Hours,lena@example.org,Row Value High,,2026-07-14,Mentor,Present
Omar,Progress,omar@example.org,Row Value High,,2026-07-14,Mentor,Present
`;
// Omar's progress is unreadable; his past-due count is not.
const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Lena Hours,lena@example.org,,10,0,0
Omar Progress,omar@example.org,,n/a,2,0
`;
// Lena's hours are unreadable; her rating and her text are not.
const REFLECTIONS = `User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week
Lena Hours,lena@example.org,lots,1,A hard week
Omar Progress,omar@example.org,3,4,Quiet
`;

const form = () =>
  importForm(
    { cohortId, weekNumber: 3 },
    {
      attendanceReport: { name: "meetings.csv", bytes: MEETING },
      progressReport: { name: "progress.csv", bytes: PROGRESS },
      reflectionReport: { name: "reflections.csv", bytes: REFLECTIONS },
    },
  );

beforeAll(async () => {
  await buildSchool(t.db, { name: "Row Value High" });
  cohortId = (await buildCohort(t.db, { name: "Row Values", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
});

const detail = (p: ImportPreview, name: string) => p.processedStudentDetails.find((d) => d.studentFullName === name);
const texts = (p: ImportPreview, name: string) => detail(p, name)?.weeklyData.flags.map((f) => f.text);

function expectRowValuesUsed(p: ImportPreview): void {
  // Lena: in the reflection report (no "No reflection"), hours decide nothing, her rating 1 and
  // her text count; her progress 10 % is behind.
  expect(texts(p, "Lena Hours")).toEqual(["Behind on progress (10% vs 50% expected)", "Low wellbeing (1/5)"]);
  expect(detail(p, "Lena Hours")?.weeklyData).toMatchObject({ reflection: "A hard week", total_hours_reported: null });
  // Omar: in the progress report (no "No learning-platform record"), progress decides nothing,
  // his 2 past-due assessments count; his 3 hours are low.
  expect(texts(p, "Omar Progress")).toEqual(["2 past-due assessment(s)", "Low hours (3 of 20 expected)"]);
  expect(detail(p, "Omar Progress")?.weeklyData).toMatchObject({ reflection: "Quiet", total_hours_reported: 3 });
  expect(p.errorsEncountered).toEqual([
    expect.objectContaining({ type: "parse", file: "progress.csv", row: 3, column: "Progress", value: "n/a" }),
    expect.objectContaining({ type: "parse", file: "reflections.csv", row: 2, column: "How many hours did you work this week?", value: "lots" }),
  ]);
  expect(p.warnings).toEqual([]);
}

describe("a week whose platform rows each have one bad value", () => {
  it("previews the students with the rest of their rows, and lists the row errors", async () => {
    const res = await postImport(t, "preview", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    expectRowValuesUsed(res.json<ImportPreview>());
  });

  it("commits the same: the week's flags, text and hours from what the rows do say", async () => {
    const res = await postImport(t, "commit", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    const commit = res.json<ImportCommit>();
    expectRowValuesUsed(commit);
    const weeks = await t.db
      .selectFrom("weekly_data as w")
      .innerJoin("students as s", "s.id", "w.student_id")
      .select(["s.email", "w.flags", "w.reflection", "w.hours_reported"])
      .where("w.cohort_id", "=", cohortId)
      .orderBy("s.email")
      .execute();
    expect(weeks.map((w) => [w.email, w.flags.map((f) => f.code), w.reflection, w.hours_reported])).toEqual([
      ["lena@example.org", ["BEHIND_PROGRESS", "LOW_WELLBEING"], "A hard week", null],
      ["omar@example.org", ["PAST_DUE", "LOW_HOURS"], "Quiet", 3],
    ]);
  });
});
