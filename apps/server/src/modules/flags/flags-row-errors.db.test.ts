import type { ProcessFlagsError, ProcessFlagsResponse } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent } from "../../../test/factories.js";
import { flagFiles, keepRows, postConfirmFlags, postProcessFlags, processedRun } from "../../../test/flag-upload.js";
import { importForm } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// A bad row is an error for that row and skipped whole (issue 41.12); the other rows go through
// (report-formats.md, "Parsing rules"). Week 3 of 6 with 120 hours: progress is expected at 50 % (behind below 30 %), 20
// hours a week (low below 10).

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });
let cohortId = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  const school = await buildSchool(t.db, { name: "Row Error High" });
  cohortId = (await buildCohort(t.db, { name: "Row Errors", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  for (const [first, last, email] of [
    ["Maria", "Lopez", "maria@example.org"],
    ["Sam", "Okafor", "sam@example.org"],
    ["Only", "Bad", "only@example.org"],
    ["Good", "Student", "good@example.org"],
  ] as const) {
    ids[`${first} ${last}`] = (await buildStudent(t.db, { schoolId: school.id, firstName: first, lastName: last, email, cohortIds: [cohortId] })).id;
  }
});

// Maria: one good Absent session and one Absent session without a Benefit Assignment ID (not
// counted). Sam: an unknown status and an Enrolled session with a bad date (neither counted:
// a row with a bad value is skipped whole). Only Bad: a single row without a Benefit Assignment ID.
const CRM = `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
Maria Lopez,BA-10,Absent,maria@example.org,Workshop,2026-07-14
Maria Lopez,,Absent,maria@example.org,Site Visit,2026-07-16
Sam Okafor,BA-11,Cancelled,sam@example.org,Workshop,2026-07-14
Sam Okafor,BA-11,Enrolled,sam@example.org,Site Visit,31/31/2026
Only Bad,,Completed,only@example.org,Workshop,2026-07-14
Good Student,BA-13,Completed,good@example.org,Workshop,2026-07-14
`;
// Sam's progress is unreadable: the row is skipped, his past-due count with it. Row 5 names nobody.
const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Maria Lopez,maria@example.org,,60,0,0
Sam Okafor,sam@example.org,,lots,2,0
Good Student,good@example.org,,10,0,0
,nobody@example.org,,50,0,0
`;
// Maria's hours are unreadable (her rating 1 is skipped with them). Sam's rating is unreadable
// (his low 5 hours are skipped with it). Good Student's reflection spans two lines in the file: a
// spreadsheet shows it as one row, so Maria is row 3 and Sam row 4.
const REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
Good Student,good@example.org,20,4,"A long week.
I learned a lot."
Maria Lopez,maria@example.org,about ten,1,Hard
Sam Okafor,sam@example.org,5,great,Fine
`;

const files = (overrides: Record<string, { name: string; bytes: string }> = {}) =>
  flagFiles({ progress: PROGRESS, reflections: REFLECTIONS, crm: CRM }, overrides);
const processFlags = (f = files()) => postProcessFlags(t, superAdmin.headers, importForm({ cohortId, currentWeek: 3 }, f));
const runCount = async () => (await sql<{ n: number }>`select count(*)::int as n from flag_runs`.execute(t.db)).rows[0]?.n;

describe("a week with bad rows", () => {
  const run = processedRun(() => processFlags());
  const flagsOf = (name: string) => run.data.find((r) => r.name === name)?.calculated_flags;

  it("answers 200 with every good row processed and the row errors beside the data", () => {
    expect(run.status).toBe("success");
    expect(run.runId).toEqual(expect.any(String));
    expect(run.data.map((r) => r.name).sort()).toEqual(["Good Student", "Maria Lopez", "Sam Okafor"]);
    expect(flagsOf("Good Student")).toEqual(["Behind on progress (10% vs 50% expected)"]);
    expect(run.rowErrorCount).toBe(8);
    expect(run.validationErrors).toHaveLength(8);
    expect(run.message).toBe("Processed 3 students, with 8 row errors.");
  });

  it("leaves out a CRM row without a Benefit Assignment ID, and counts the student's other rows", () => {
    expect(flagsOf("Maria Lopez")).toContain("Absent from 1 session(s)");
    expect(run.data.map((r) => r.name)).not.toContain("Only Bad");
  });

  it("counts no session of a CRM row with a bad value: neither an unknown status nor an Enrolled one with a bad date", () => {
    expect(flagsOf("Sam Okafor")?.join()).not.toMatch(/Absent|Attendance not recorded/);
  });

  it("skips a platform row with a bad value whole: none of its values decides a flag, and the student is still in that report", () => {
    // Maria: her reflection row is skipped (no Low hours, and her rating 1 no Low wellbeing) but
    // she is in the report (no "No reflection").
    expect(flagsOf("Maria Lopez")).toEqual(["Absent from 1 session(s)"]);
    // Sam: his progress row is skipped (no past-due from it, no "No learning-platform record"),
    // his reflection row too (his 5 hours decide nothing), and his CRM rows count for nothing.
    expect(flagsOf("Sam Okafor")).toEqual([]);
  });

  it("names report, file, spreadsheet row, column, value and student of each error, in the page's file order", () => {
    expect(run.rowErrors).toEqual([
      {
        report: "progressReport", file: "progress.csv", row: 3, column: "Progress", value: "lots", problem: "is not a percentage from 0 to 100",
        studentId: ids["Sam Okafor"], student: "Sam Okafor", outcome: "this row is skipped: Behind on progress and Past due are not decided for Sam Okafor",
      },
      {
        report: "progressReport", file: "progress.csv", row: 5, column: "Name", value: "", problem: "has no student name",
        studentId: null, student: null, outcome: "the row names no student and is not used",
      },
      {
        report: "reflectionReport", file: "reflections.csv", row: 3, column: "Hours worked this week", value: "about ten",
        problem: "is not a number of hours from 0 to 168", studentId: ids["Maria Lopez"], student: "Maria Lopez", outcome: "this row is skipped: Low hours and Low wellbeing are not decided for Maria Lopez",
      },
      {
        report: "reflectionReport", file: "reflections.csv", row: 4, column: "How are you feeling (1-5)?", value: "great",
        problem: "is not a whole number from 1 to 5", studentId: ids["Sam Okafor"], student: "Sam Okafor", outcome: "this row is skipped: Low hours and Low wellbeing are not decided for Sam Okafor",
      },
      {
        report: "attendanceReport", file: "crm.csv", row: 3, column: "Benefit Assignment ID", value: "", problem: "is empty (every row needs a Benefit Assignment ID)",
        studentId: ids["Maria Lopez"], student: "Maria Lopez", outcome: "this session of Maria Lopez is not counted",
      },
      {
        report: "attendanceReport", file: "crm.csv", row: 4, column: "Disbursement Status", value: "Cancelled", problem: "is not Completed, Absent, Excused or Enrolled",
        studentId: ids["Sam Okafor"], student: "Sam Okafor", outcome: "this session of Sam Okafor is not counted",
      },
      {
        report: "attendanceReport", file: "crm.csv", row: 5, column: "Session Date", value: "31/31/2026", problem: "is not a date",
        studentId: ids["Sam Okafor"], student: "Sam Okafor", outcome: "this session of Sam Okafor is not counted",
      },
      // Only Bad matched nobody through the CRM report, but the row's e-mail names her.
      {
        report: "attendanceReport", file: "crm.csv", row: 6, column: "Benefit Assignment ID", value: "", problem: "is empty (every row needs a Benefit Assignment ID)",
        studentId: ids["Only Bad"], student: "Only Bad", outcome: "this session of Only Bad is not counted",
      },
    ]);
  });

  it("keeps validationErrors the list of sentences old pages join after 'File Validation Errors: '", () => {
    expect(run.validationErrors[0]).toBe(
      'progress.csv row 3, Progress "lots": is not a percentage from 0 to 100 — this row is skipped: Behind on progress and Past due are not decided for Sam Okafor',
    );
    expect(run.validationErrors[4]).toBe(
      'crm.csv row 3, Benefit Assignment ID "": is empty (every row needs a Benefit Assignment ID) — this session of Maria Lopez is not counted',
    );
  });

  it("imports the good rows of the run", async () => {
    const res = await postConfirmFlags(t, superAdmin.headers, keepRows(run, cohortId, 3));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().summary).toMatchObject({ studentsImported: 3 });
  });
});

describe("row errors past the listed limit", () => {
  it("lists the first 1,000 and counts them all", async () => {
    const bad = Array.from({ length: 1_200 }, (_, i) => `Ghost ${i},ghost${i}@example.org,x,3,Fine`).join("\n");
    const res = await processFlags(files({ reflectionReport: { name: "reflections.csv", bytes: `${REFLECTIONS}${bad}\n` } }));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json<ProcessFlagsResponse>();
    expect(body.rowErrorCount).toBe(1_208);
    expect(body.rowErrors).toHaveLength(1_000);
    expect(body.validationErrors).toHaveLength(1_000);
    expect(body.message).toBe("Processed 3 students, with 1,208 row errors (the first 1,000 are listed).");
  });
});

describe("a file that cannot be read at all is still refused whole", () => {
  async function refused(f: ReturnType<typeof files>, message: RegExp) {
    const before = await runCount();
    const res = await processFlags(f);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<ProcessFlagsError>();
    expect(body).toMatchObject({ status: "error", data: [] });
    expect(body.validationErrors.join()).toMatch(message);
    expect(await runCount()).toBe(before);
  }

  it("refuses a missing required column", async () => {
    const crm = CRM.replace("Benefit Assignment ID,", "").replace(/,BA-\d+,|,,/g, ",");
    await refused(files({ attendanceReport: { name: "crm.csv", bytes: crm } }), /crm\.csv: required column "Benefit Assignment ID" is missing/);
  });

  it("refuses an ambiguous column", async () => {
    const reflections = REFLECTIONS.replace("Hours worked this week", "Hours worked this week,Hours planned").replace(/,(20|about ten|5),/g, ",$1,0,");
    await refused(files({ reflectionReport: { name: "reflections.csv", bytes: reflections } }), /reflections\.csv: ambiguous column for "hours worked"/);
  });
});

// Report-formats.md, "Matching a row to a student", rule 4: a CRM row is matched by its Benefit
// Assignment ID first, then e-mail, then name. The ID is mandatory on every row, the name is not:
// a row without a name is matched by what it does carry.
describe("CRM rows without an Enrollee Name", () => {
  const NAMELESS_CRM = `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
,BA-20,Absent,,Workshop,2026-07-14
,BA-21,Enrolled,eve@example.org,Workshop,2026-07-14
,BA-22,Absent,,Workshop,2026-07-14
Nora Later,BA-22,Completed,,Site Visit,2026-07-16
,BA-99,Completed,,Workshop,2026-07-14
,BA-98,Cancelled,,Workshop,2026-07-14
`;
  const NAMELESS_PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Nina Stored,nina@example.org,,60,0,0
Eve Mail,eve@example.org,,60,0,0
Nora Later,nora@example.org,,60,0,0
`;
  const NAMELESS_REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
Nina Stored,nina@example.org,20,4,Fine
Eve Mail,eve@example.org,20,4,Fine
Nora Later,nora@example.org,20,4,Fine
`;
  let run: ProcessFlagsResponse;
  const nameless: Record<string, number> = {};

  beforeAll(async () => {
    const school = await buildSchool(t.db, { name: "Nameless Rows High" });
    const cohort = (await buildCohort(t.db, { name: "Nameless Rows", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
    for (const [first, last, email] of [
      ["Nina", "Stored", "nina@example.org"],
      ["Eve", "Mail", "eve@example.org"],
      ["Nora", "Later", "nora@example.org"],
    ] as const) {
      nameless[first] = (await buildStudent(t.db, { schoolId: school.id, firstName: first, lastName: last, email, cohortIds: [cohort] })).id;
    }
    await t.db.updateTable("students").set({ benefit_assignment_id: "BA-20" }).where("id", "=", nameless.Nina!).execute();
    const res = await postProcessFlags(
      t,
      superAdmin.headers,
      importForm(
        { cohortId: cohort, currentWeek: 3 },
        {
          progressReport: { name: "progress.csv", bytes: NAMELESS_PROGRESS },
          reflectionReport: { name: "reflections.csv", bytes: NAMELESS_REFLECTIONS },
          attendanceReport: { name: "crm.csv", bytes: NAMELESS_CRM },
        },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    run = res.json<ProcessFlagsResponse>();
  });
  const rowOf = (id: number | undefined) => run.data.find((r) => r.studentId === id);

  it("matches a row without a name by its Benefit Assignment ID", () => {
    expect(rowOf(nameless.Nina)).toMatchObject({ matchedBy: "benefit_assignment_id", benefit_assignment_id: "BA-20", calculated_flags: ["Absent from 1 session(s)"] });
  });

  it("matches it by e-mail when no student has the ID yet", () => {
    expect(rowOf(nameless.Eve)).toMatchObject({ matchedBy: "email", benefit_assignment_id: "BA-21", calculated_flags: ["Attendance not recorded for 1 session(s)"] });
  });

  it("matches an enrollee by the name another of its rows gives, and counts the nameless row too", () => {
    expect(rowOf(nameless.Nora)).toMatchObject({ matchedBy: "name", benefit_assignment_id: "BA-22", calculated_flags: ["Absent from 1 session(s)"] });
  });

  it("lists a row that matches nobody as unmatched, naming its Benefit Assignment ID", () => {
    expect(run.data).toHaveLength(3);
    expect(run.unmatched).toEqual([
      { file: "crm.csv", row: 6, name: "", email: null, reason: "in the CRM report without a name, and no student of this cohort has its Benefit Assignment ID (BA-99)" },
      { file: "crm.csv", row: 7, name: "", email: null, reason: "in the CRM report without a name, and no student of this cohort has its Benefit Assignment ID (BA-98)" },
    ]);
  });

  it("makes a missing name no row error, and names the ID in the error of an unmatched row's bad value", () => {
    expect(run.rowErrors).toEqual([
      {
        report: "attendanceReport", file: "crm.csv", row: 7, column: "Disbursement Status", value: "Cancelled", problem: "is not Completed, Absent, Excused or Enrolled",
        studentId: null, student: null, outcome: "the enrollee of Benefit Assignment ID BA-98 is matched to no student of this cohort (see the unmatched rows); this session is not counted",
      },
    ]);
    expect(run.validationErrors).toEqual([
      'crm.csv row 7, Disbursement Status "Cancelled": is not Completed, Absent, Excused or Enrolled — the enrollee of Benefit Assignment ID BA-98 is matched to no student of this cohort (see the unmatched rows); this session is not counted',
    ]);
  });
});

// Issue 41.12: of two progress or reflection rows for one student, a valid one is never replaced
// by an invalid one, before or after it; the verification step says which row was used.
describe("two platform rows for one student", () => {
  const TWICE_CRM = `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
Maria Lopez,BA-10,Completed,maria@example.org,Workshop,2026-07-14
Sam Okafor,BA-11,Completed,sam@example.org,Workshop,2026-07-14
Good Student,BA-13,Completed,good@example.org,Workshop,2026-07-14
`;
  // Maria: a whole row, then one with bad progress (and 3 past-due). Sam: the bad one first.
  const TWICE_PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Maria Lopez,maria@example.org,,60,0,0
Sam Okafor,sam@example.org,,n/a,3,0
Maria Lopez,maria@example.org,,n/a,3,0
Sam Okafor,sam@example.org,,60,0,0
Good Student,good@example.org,,60,0,0
`;
  // Maria: 8 hours and a rating of 4, then "lots" with a rating of 1. Sam: the bad row first.
  const TWICE_REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
Maria Lopez,maria@example.org,8,4,Good week
Maria Lopez,maria@example.org,lots,1,Bad row
Sam Okafor,sam@example.org,lots,1,Bad row
Sam Okafor,sam@example.org,9,4,Good week
Good Student,good@example.org,20,4,Fine
`;
  const run = processedRun(() => processFlags(files({
    progressReport: { name: "progress.csv", bytes: TWICE_PROGRESS },
    reflectionReport: { name: "reflections.csv", bytes: TWICE_REFLECTIONS },
    attendanceReport: { name: "crm.csv", bytes: TWICE_CRM },
  })));
  const rowOf = (name: string) => run.data.find((r) => r.name === name);

  it("calculates the flags from the valid rows only", () => {
    expect(rowOf("Maria Lopez")?.calculated_flags).toEqual(["Low hours (8 of 20 expected)"]);
    expect(rowOf("Sam Okafor")?.calculated_flags).toEqual(["Low hours (9 of 20 expected)"]);
  });

  it("says which row of each file was used, and only for a student with several", () => {
    expect(rowOf("Maria Lopez")?.rowsUsed).toEqual([
      { file: "progress.csv", row: 2, rows: [2, 4] },
      { file: "reflections.csv", row: 2, rows: [2, 3] },
    ]);
    expect(rowOf("Sam Okafor")?.rowsUsed).toEqual([
      { file: "progress.csv", row: 5, rows: [3, 5] },
      { file: "reflections.csv", row: 5, rows: [4, 5] },
    ]);
    expect(rowOf("Good Student")).not.toHaveProperty("rowsUsed");
  });

  it("names the row used instead of each skipped one", () => {
    expect(run.rowErrors.map((e) => [e.file, e.row, e.outcome])).toEqual([
      ["progress.csv", 3, "this row is skipped; row 5 of Sam Okafor is used"],
      ["progress.csv", 4, "this row is skipped; row 2 of Maria Lopez is used"],
      ["reflections.csv", 3, "this row is skipped; row 2 of Maria Lopez is used"],
      ["reflections.csv", 4, "this row is skipped; row 5 of Sam Okafor is used"],
    ]);
  });

  it("imports the run as processed", async () => {
    const res = await postConfirmFlags(t, superAdmin.headers, keepRows(run, cohortId, 3));
    expect(res.statusCode, res.body).toBe(200);
  });
});

// Issue 41.9: a name with a line break or another control character is a row error; the row is not used.
describe("enrollee names with control characters", () => {
  const CONTROL_CRM = [
    "Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date",
    '"Maria\r\nLopez",BA-10,Absent,maria@example.org,Workshop,2026-07-14',
    "Good Student,BA-13,Completed,good@example.org,Workshop,2026-07-14",
    "",
  ].join("\n");
  const run = processedRun(() => processFlags(files({ attendanceReport: { name: "crm.csv", bytes: CONTROL_CRM } })));

  it("reports the row and counts nothing from it", () => {
    expect(run.rowErrors.filter((e) => e.report === "attendanceReport")).toEqual([
      {
        report: "attendanceReport", file: "crm.csv", row: 2, column: "Enrollee Name", value: "Maria\r\nLopez",
        problem: "contains a line break or another control character", studentId: null, student: null, outcome: "this row is not used",
      },
    ]);
    // Maria's only CRM row is not used: she is not in the run.
    expect(run.data.map((r) => r.name)).toEqual(["Good Student"]);
  });
});
