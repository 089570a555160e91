import { IMPORT_LIMITS } from "@tally/contract";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, importRowCounts, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Every refusal is a clear 4xx with a message naming what is wrong, and writes nothing.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
const schoolUser = useSignedIn(t, { role: "school_user" });
let cohortId = 0;
let lastYearCohortId = 0;

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10" })).id;
  lastYearCohortId = (await buildCohort(t.db, { name: "Summer last year", startDate: "2025-06-30", endDate: "2025-08-11" })).id;
});

const rowCounts = () => importRowCounts(t.db);
let countsBefore: number[] = [];
beforeAll(async () => {
  countsBefore = await rowCounts();
});
afterEach(async () => {
  expect(await rowCounts()).toEqual(countsBefore);
});

const existing = () => ({ cohortId, weekNumber: 3 });
const withFile = (field: string, name: string, bytes: string | Uint8Array) => ({ ...week3Files(), [field]: { name, bytes } });

async function expectRefusal(
  fields: Record<string, string | number>,
  files: Parameters<typeof importForm>[1],
  status: number,
  message: RegExp | string,
  headers = admin.headers,
) {
  for (const step of ["preview", "commit"] as const) {
    const res = await postImport(t, step, headers, importForm(fields, files));
    expect(res.statusCode, `${step}: ${res.body}`).toBe(status);
    const error = res.json<{ error: string }>().error;
    if (typeof message === "string") expect(error).toBe(message);
    else expect(error).toMatch(message);
  }
}

const MEETING_HEADER = "First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status\n";

describe("refusals of the weekly import", () => {
  it("refuses school and district users with 403", async () => {
    await expectRefusal(existing(), week3Files(), 403, "Only an administrator can import weekly data", schoolUser.headers);
  });

  it("refuses a file that is not CSV", async () => {
    await expectRefusal(existing(), { ...week3Files(), progressReport: { name: "progress.xlsx", bytes: "PK\u0003\u0004", type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } }, 400, /Progress report \(progress\.xlsx\): Invalid file type\. Please upload a CSV file\./);
  });

  it("refuses binary data in a .csv file", async () => {
    await expectRefusal(existing(), withFile("reflectionReport", "r.csv", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 1])), 400, /not a CSV text file/);
  });

  it("asks for all three files", async () => {
    const { attendanceReport, progressReport } = week3Files();
    await expectRefusal(existing(), { attendanceReport, progressReport }, 400, "Please upload all three required files. Missing: Reflection report.");
  });

  it("names the file and the column when a required column is missing", async () => {
    const progress = "Name,Email,Progress,Assessments Without Due Dates\nDmitri Silva,dmitri.silva0@students.example.org,5,1\n";
    await expectRefusal(existing(), withFile("progressReport", "progress.csv", progress), 400, /progress\.csv.*Past Due Assessments/);
  });

  it("refuses two headers for one role (an ambiguous column)", async () => {
    const reflections = "User Name,Hours worked,Hours planned,How do you feel?\nDmitri Silva,3,4,2\n";
    await expectRefusal(existing(), withFile("reflectionReport", "reflections.csv", reflections), 400, /reflections\.csv.*(ambiguous|Hours worked.*Hours planned)/i);
  });

  it("refuses an empty file and a header without rows", async () => {
    await expectRefusal(existing(), withFile("attendanceReport", "empty.csv", ""), 400, /empty/);
    await expectRefusal(existing(), withFile("attendanceReport", "header.csv", MEETING_HEADER), 400, /header\.csv.*(no data rows|empty)/);
  });

  it("refuses a file over 10 MB with 413", async () => {
    const big = MEETING_HEADER + "x".repeat(IMPORT_LIMITS.maxFileBytes);
    await expectRefusal(existing(), withFile("attendanceReport", "big.csv", big), 413, "big.csv is larger than 10 MB. Split the report into smaller files.");
  });

  it("refuses more than 50,000 data rows with 413", async () => {
    const row = "A,B,,Riverside Academy,,2026-07-14,Mentor,Present\n";
    const many = MEETING_HEADER + row.repeat(IMPORT_LIMITS.maxDataRows + 1);
    await expectRefusal(existing(), withFile("attendanceReport", "many.csv", many), 413, /many\.csv.*50,000/);
  });

  it("refuses a week outside the cohort", async () => {
    await expectRefusal({ cohortId, weekNumber: 7 }, week3Files(), 400, /Week 7 is outside cohort "Summer": it has 6 weeks/);
    await expectRefusal({ cohortId, weekNumber: 0 }, week3Files(), 400, /Week number must be 1 or more/);
    await expectRefusal({ cohortId, weekNumber: "three" }, week3Files(), 400, /Week number must be a number/);
  });

  it("refuses a cohort of another programme year than the meeting dates", async () => {
    await expectRefusal({ cohortId: lastYearCohortId, weekNumber: 3 }, week3Files(), 400, /programme year 2025–26, but cohort "Summer last year" runs in 2024–25/);
  });

  it("refuses an unknown cohort, a missing new-cohort field, and a new cohort whose name is taken", async () => {
    await expectRefusal({ cohortId: 999_999, weekNumber: 3 }, week3Files(), 404, /Cohort not found/);
    const { totalExpectedHours: _h, ...noHours } = WEEK3_NEW_COHORT;
    await expectRefusal(noHours, week3Files(), 400, /total expected hours/);
    await expectRefusal({ ...WEEK3_NEW_COHORT, endDate: "2026-06-01" }, week3Files(), 400, "End date must be after the start date");
    await expectRefusal({ ...WEEK3_NEW_COHORT, programType: "Apprenticeship" }, week3Files(), 400, /Program type must be one of/);
    await expectRefusal({ ...WEEK3_NEW_COHORT, cohortName: " summer " }, week3Files(), 409, /A cohort named " summer " already exists|A cohort named "summer" already exists/);
  });

  it("refuses unknown form fields and file fields", async () => {
    await expectRefusal({ ...existing(), role: "admin" }, week3Files(), 400, /Unknown form field: role/);
    const { progressReport, ...two } = week3Files();
    await expectRefusal(existing(), { ...two, progress: progressReport }, 400, /Unknown file field "progress"/);
    await expectRefusal(existing(), { ...week3Files(), extraReport: { name: "x.csv", bytes: "a\n1\n" } }, 400, "Send the three report files and the form fields only.");
  });

  it("refuses a body that is not multipart with 415", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/flag-upload/preview-weekly-data", headers: admin.headers, payload: { cohortId } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/multipart\/form-data/);
  });

  it("refuses a commit where no row can be used", async () => {
    const meeting = `${MEETING_HEADER}A,B,,Unknown School,,2026-07-14,Mentor,Present\n`;
    const res = await postImport(t, "commit", admin.headers, importForm(existing(), withFile("attendanceReport", "m.csv", meeting)));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatch(/No data to commit/);
  });
});
