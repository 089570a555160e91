import type { ImportCommit, ImportPreview } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, postImport } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// A bad value in a progress or reflection row is an error for that row (report-formats.md,
// "Parsing rules"), and the row is skipped whole (issue 41.12): none of its values counts, while
// the student is still in that report (no "No reflection submitted"). Week 3 of 6 with 120
// hours: progress is expected at 50 % (behind below 30 %), 20 hours a week (low below 10).

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

function expectBadRowsSkipped(p: ImportPreview): void {
  // Lena: in the reflection report (no "No reflection"), but her row is skipped: neither her
  // rating 1 nor her text counts; her progress 10 % is behind.
  expect(texts(p, "Lena Hours")).toEqual(["Behind on progress (10% vs 50% expected)"]);
  expect(detail(p, "Lena Hours")?.weeklyData).toMatchObject({ reflection: null, total_hours_reported: null });
  // Omar: in the progress report (no "No learning-platform record"), but his row is skipped: his
  // 2 past-due assessments do not count; his 3 hours are low.
  expect(texts(p, "Omar Progress")).toEqual(["Low hours (3 of 20 expected)"]);
  expect(detail(p, "Omar Progress")?.weeklyData).toMatchObject({ reflection: "Quiet", total_hours_reported: 3 });
  expect(p.errorsEncountered).toEqual([
    expect.objectContaining({
      type: "parse", file: "progress.csv", row: 3, column: "Progress", value: "n/a",
      error: 'progress.csv row 3 · Omar Progress · Progress "n/a" is not a percentage from 0 to 100 — this row is skipped: its progress and past-due count are not used',
    }),
    expect.objectContaining({
      type: "parse", file: "reflections.csv", row: 2, column: "How many hours did you work this week?", value: "lots",
      error: 'reflections.csv row 2 · Lena Hours · How many hours did you work this week? "lots" is not a number of hours from 0 to 168 — this row is skipped: its hours, rating and reflection are not used',
    }),
  ]);
  expect(p.warnings).toEqual([]);
  expect(p.processedStudentDetails.map((d) => d.rowsUsed)).toEqual([undefined, undefined]);
}

describe("a week whose platform rows each have one bad value", () => {
  it("previews the students without their bad rows, and lists the row errors", async () => {
    const res = await postImport(t, "preview", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    expectBadRowsSkipped(res.json<ImportPreview>());
  });

  it("commits the same: no value of a bad row is stored", async () => {
    const res = await postImport(t, "commit", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    const commit = res.json<ImportCommit>();
    expectBadRowsSkipped(commit);
    const weeks = await t.db
      .selectFrom("weekly_data as w")
      .innerJoin("students as s", "s.id", "w.student_id")
      .select(["s.email", "w.flags", "w.reflection", "w.hours_reported"])
      .where("w.cohort_id", "=", cohortId)
      .orderBy("s.email")
      .execute();
    expect(weeks.map((w) => [w.email, w.flags.map((f) => f.code), w.reflection, w.hours_reported])).toEqual([
      ["lena@example.org", ["BEHIND_PROGRESS"], null, null],
      ["omar@example.org", ["LOW_HOURS"], "Quiet", 3],
    ]);
  });
});

// Issue 41.12: a good row (hours 8, a reflection) and a later row whose hours read "lots" imported
// the student with hours empty and the bad row's reflection. A bad row is skipped whole and never
// replaces a whole row; the preview says which row was used.
describe("two rows for one student and week", () => {
  let twiceCohortId = 0;
  beforeAll(async () => {
    twiceCohortId = (await buildCohort(t.db, { name: "Rows Twice", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  });
  const meeting = `First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status
Gina Good,First,gina@example.org,Row Value High,,2026-07-14,Mentor,Present
Bea Bad,First,bea@example.org,Row Value High,,2026-07-14,Mentor,Present
Wes Whole,Twice,wes@example.org,Row Value High,,2026-07-14,Mentor,Present
Nell None,Good,nell@example.org,Row Value High,,2026-07-14,Mentor,Present
`;
  const progress = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Gina Good First,gina@example.org,,60,0,0
Bea Bad First,bea@example.org,,60,0,0
Wes Whole Twice,wes@example.org,,60,0,0
Nell None Good,nell@example.org,,60,0,0
Nell None Good,nell@example.org,,n/a,3,0
`;
  // Gina: the good row, then a bad one. Bea: a bad one, then the good one. Wes: two whole rows
  // (the later counts). Nell: two bad rows (in the report, no value counts).
  const reflections = `User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week
Gina Good First,gina@example.org,8,4,Built the intake form
Bea Bad First,bea@example.org,lots,1,Bad row text
Gina Good First,gina@example.org,lots,1,Bad row text
Bea Bad First,bea@example.org,9,4,Tested the intake form
Wes Whole Twice,wes@example.org,12,4,First answer
Wes Whole Twice,wes@example.org,14,2,Second answer
Nell None Good,nell@example.org,lots,1,Bad row text
Nell None Good,nell@example.org,11,0,Bad rating text
`;
  const twiceForm = () =>
    importForm(
      { cohortId: twiceCohortId, weekNumber: 3 },
      {
        attendanceReport: { name: "meetings.csv", bytes: meeting },
        progressReport: { name: "progress.csv", bytes: progress },
        reflectionReport: { name: "reflections.csv", bytes: reflections },
      },
    );

  function expectWholeRowsUsed(p: ImportPreview): void {
    expect(detail(p, "Gina Good First")?.weeklyData).toMatchObject({ total_hours_reported: 8, reflection: "Built the intake form" });
    expect(texts(p, "Gina Good First")).toEqual(["Low hours (8 of 20 expected)"]);
    expect(detail(p, "Bea Bad First")?.weeklyData).toMatchObject({ total_hours_reported: 9, reflection: "Tested the intake form" });
    expect(texts(p, "Bea Bad First")).toEqual(["Low hours (9 of 20 expected)"]);
    expect(detail(p, "Wes Whole Twice")?.weeklyData).toMatchObject({ total_hours_reported: 14, reflection: "Second answer" });
    expect(texts(p, "Wes Whole Twice")).toEqual(["Low wellbeing (2/5)"]);
    // Nell's progress row 6 is bad, row 5 is used (no past-due count from row 6); both
    // reflection rows are bad: in the report, nothing decided, nothing stored.
    expect(detail(p, "Nell None Good")?.weeklyData).toMatchObject({ total_hours_reported: null, reflection: null });
    expect(texts(p, "Nell None Good")).toEqual([]);

    expect(Object.fromEntries(p.processedStudentDetails.map((d) => [d.studentFullName, d.rowsUsed]))).toEqual({
      "Gina Good First": [{ file: "reflections.csv", row: 2, rows: [2, 4] }],
      "Bea Bad First": [{ file: "reflections.csv", row: 5, rows: [3, 5] }],
      "Wes Whole Twice": [{ file: "reflections.csv", row: 7, rows: [6, 7] }],
      "Nell None Good": [
        { file: "progress.csv", row: 5, rows: [5, 6] },
        { file: "reflections.csv", row: null, rows: [8, 9] },
      ],
    });
    expect(p.errorsEncountered.map((e) => [e.file, e.row, e.studentName, e.error.split(" — ")[1]])).toEqual([
      ["progress.csv", 6, "Nell None Good", "this row is skipped; row 5 is used"],
      ["reflections.csv", 3, "Bea Bad First", "this row is skipped; row 5 is used"],
      ["reflections.csv", 4, "Gina Good First", "this row is skipped; row 2 is used"],
      ["reflections.csv", 8, "Nell None Good", "this row is skipped: its hours, rating and reflection are not used"],
      ["reflections.csv", 9, "Nell None Good", "this row is skipped: its hours, rating and reflection are not used"],
    ]);
    expect(p.warnings.filter((w) => w.type === "duplicate_row").map((w) => w.message)).toEqual([
      "progress.csv rows 5, 6: Nell None Good appears 2 times; row 5 is used",
      "reflections.csv rows 2, 4: Gina Good First appears 2 times; row 2 is used",
      "reflections.csv rows 3, 5: Bea Bad First appears 2 times; row 5 is used",
      "reflections.csv rows 6, 7: Wes Whole Twice appears 2 times; row 7 is used",
      "reflections.csv rows 8, 9: Nell None Good appears 2 times; none is used (each has a bad value)",
    ]);
  }

  it("previews the valid row, never the invalid one after or before it, and says which row was used", async () => {
    const res = await postImport(t, "preview", admin.headers, twiceForm());
    expect(res.statusCode, res.body).toBe(200);
    expectWholeRowsUsed(res.json<ImportPreview>());
  });

  it("commits the valid row's hours and reflection", async () => {
    const res = await postImport(t, "commit", admin.headers, twiceForm());
    expect(res.statusCode, res.body).toBe(200);
    expectWholeRowsUsed(res.json<ImportCommit>());
    const weeks = await t.db
      .selectFrom("weekly_data as w")
      .innerJoin("students as s", "s.id", "w.student_id")
      .select(["s.email", "w.reflection", "w.hours_reported"])
      .where("w.cohort_id", "=", twiceCohortId)
      .orderBy("s.email")
      .execute();
    expect(weeks.map((w) => [w.email, w.hours_reported, w.reflection])).toEqual([
      ["bea@example.org", 9, "Tested the intake form"],
      ["gina@example.org", 8, "Built the intake form"],
      ["nell@example.org", null, null],
      ["wes@example.org", 14, "Second answer"],
    ]);
  });
});

// Issue 41.9: a student name with a line break or another control character is a row error and
// the row is skipped; no student is created with it.
describe("student names with control characters", () => {
  let namesCohortId = 0;
  beforeAll(async () => {
    namesCohortId = (await buildCohort(t.db, { name: "Control Names", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  });
  const meeting = [
    "Student Name,Email,School,Team,Meeting Date,Meeting Type,Status",
    "Clean Name,clean@example.org,Row Value High,,2026-07-14,Mentor,Present",
    '"Line\nBreak",line@example.org,Row Value High,,2026-07-14,Mentor,Present',
    '"Carriage\rReturn",cr@example.org,Row Value High,,2026-07-14,Mentor,Present',
    "Next\u0085Line,nel@example.org,Row Value High,,2026-07-14,Mentor,Present",
    "Line\u2028Separator,ls@example.org,Row Value High,,2026-07-14,Mentor,Present",
    "Del\u007fete,del@example.org,Row Value High,,2026-07-14,Mentor,Present",
    "",
  ].join("\r\n");
  const reflections = `User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week
"Clean\nName",clean@example.org,12,4,Fine
`;

  it("reports each such row as an error, skips it, and creates no student from it", async () => {
    const res = await postImport(
      t,
      "commit",
      admin.headers,
      importForm(
        { cohortId: namesCohortId, weekNumber: 3 },
        {
          attendanceReport: { name: "meetings.csv", bytes: meeting },
          progressReport: { name: "progress.csv", bytes: "Name,Email,Progress,Past Due Assessments,Assessments Without Due Dates\nClean Name,clean@example.org,60,0,0\n" },
          reflectionReport: { name: "reflections.csv", bytes: reflections },
        },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const commit = res.json<ImportCommit>();
    expect(commit.processedStudentDetails.map((d) => d.studentFullName)).toEqual(["Clean Name"]);
    // The reflection row naming Clean Name across a line break is skipped too: no reflection of hers.
    expect(texts(commit, "Clean Name")).toContain("No reflection submitted");
    expect(commit.errorsEncountered.map((e) => [e.file, e.row, e.column, e.studentName, e.error.replace(/^.*" /s, "")])).toEqual([
      ...[3, 4, 5, 6, 7].map((row) => ["meetings.csv", row, "Student Name", null, "contains a line break or another control character — this row is skipped"]),
      ["reflections.csv", 2, "User Name", null, "contains a line break or another control character — this row is skipped"],
    ]);
    expect(commit.errorsEncountered[0]).toMatchObject({ value: "Line\nBreak" });
    const names = await t.db.selectFrom("students").select(["first_name", "last_name"]).where("email", "in", ["line@example.org", "cr@example.org", "nel@example.org", "ls@example.org", "del@example.org"]).execute();
    expect(names).toEqual([]);
  });
});
