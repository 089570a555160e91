import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportFile, week3Report, withoutRow } from "../../../test/report-files.js";
import { lastFirstNames, messyCsv, messyOptions } from "../../../test/messy-csv.js";
import { readProgressReport } from "./progress-report.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";

const { text: cleanText, clean } = week3Report("progress.csv");
const file = (text: string | Uint8Array, name = "progress.csv") => reportFile(text, name);
const HEADERS = "Name,Progress,Past Due Assessments,Assessments Without Due Dates\n";

describe("readProgressReport", () => {
  it("reads the week 3 sample", async () => {
    const report = await readProgressReport(file(cleanText));
    expect(report.errors).toEqual([]);
    expect(report.rows).toHaveLength(37);
    expect(report.rows[0]).toEqual({
      row: 2,
      fullName: "Dmitri Silva",
      firstName: "Dmitri",
      lastName: "Silva",
      email: "dmitri.silva0@students.example.org",
      team: "Team B2",
      progress: 5,
      pastDue: 0,
      withoutDueDates: 1,
    });
  });

  it("gives the same rows for the sample in every messy shape", async () => {
    const baseline = withoutRow((await readProgressReport(file(cleanText))).rows);
    const aliases = { Name: ["Student Name", "Full Name"], Email: ["E-mail", "Email Address"] };
    await fc.assert(
      fc.asyncProperty(messyOptions(clean.rows.length, aliases), fc.boolean(), async (options, lastFirst) => {
        const table = lastFirst ? lastFirstNames(clean, "Name") : clean;
        const report = await readProgressReport(file(messyCsv(table, options)));
        expect(report.errors).toEqual([]);
        expect(withoutRow(report.rows)).toEqual(baseline);
      }),
      { numRuns: 40 },
    );
  });

  it("reads percentages, fractions and thousands separators", async () => {
    const text = `${HEADERS}A B,45%,0,0\nC D,0.45, 1 ,"1,200"\nE F, 45 ,2,0\nG H,100,0,0\n`;
    const report = await readProgressReport(file(text));
    expect(report.errors).toEqual([]);
    expect(report.rows.map((r) => [r.progress, r.pastDue, r.withoutDueDates])).toEqual([
      [45, 0, 0],
      [45, 1, 1200],
      [45, 2, 0],
      [100, 0, 0],
    ]);
  });

  it("reads a single name column as first word + rest, and Last, First turned round", async () => {
    const text = `${HEADERS}Ana de la Cruz,1,0,0\n"Núñez, José",1,0,0\nCher,1,0,0\n`;
    const report = await readProgressReport(file(text));
    expect(report.rows.map((r) => [r.fullName, r.firstName, r.lastName])).toEqual([
      ["Ana de la Cruz", "Ana", "de la Cruz"],
      ["José Núñez", "José", "Núñez"],
      ["Cher", "Cher", ""],
    ]);
  });

  it("leaves out each bad row with its error and keeps the others", async () => {
    const text = `${HEADERS}Good Row,50,0,0\nBad Progress,150,0,0\nBad Due,50,-1,0\nBad Without,50,0,2.5\n,50,0,0\nText,lots,0,0\n`;
    const report = await readProgressReport(file(text));
    expect(report.rows.map((r) => r.fullName)).toEqual(["Good Row"]);
    expect(report.errors).toEqual([
      { file: "progress.csv", row: 3, column: "Progress", value: "150", problem: "is not a percentage from 0 to 100" },
      { file: "progress.csv", row: 4, column: "Past Due Assessments", value: "-1", problem: "is not a whole number of 0 or more" },
      { file: "progress.csv", row: 5, column: "Assessments Without Due Dates", value: "2.5", problem: "is not a whole number of 0 or more" },
      { file: "progress.csv", row: 6, column: "Name", value: "", problem: "has no student name" },
      { file: "progress.csv", row: 7, column: "Progress", value: "lots", problem: "is not a percentage from 0 to 100" },
    ]);
  });

  it.each([
    ["Name,Past Due Assessments,Assessments Without Due Dates\nA,0,0\n", 'progress.csv: required column "Progress" is missing'],
    ["Name,Progress,Assessments Without Due Dates\nA,1,0\n", 'progress.csv: required column "Past Due Assessments" is missing'],
    ["Name,Progress,Past Due Assessments\nA,1,0\n", 'progress.csv: required column "Assessments Without Due Dates" is missing'],
    ["Email,Progress,Past Due Assessments,Assessments Without Due Dates\na@b,1,0,0\n", /^progress\.csv: required column "Name" is missing/],
    ["Name,Progress,PROGRESS,Past Due Assessments,Assessments Without Due Dates\nA,1,1,0,0\n", /ambiguous column for "Progress"/],
  ])("refuses %j", async (text, message) => {
    const result = readProgressReport(file(text));
    await expect(result).rejects.toBeInstanceOf(ReportRejected);
    await expect(result).rejects.toThrow(message);
  });

  it("refuses a file over 10 MB with 413", async () => {
    const error = await readProgressReport(file(new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportRejected);
    expect((error as ReportRejected).statusCode).toBe(413);
    expect((error as ReportRejected).message).toBe("progress.csv is larger than 10 MB; split it into smaller files");
  });

  it("refuses more than 50,000 rows with 413", async () => {
    const text = HEADERS + "A B,1,0,0\n".repeat(50_001);
    const error = await readProgressReport(file(text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportRejected);
    expect((error as ReportRejected).statusCode).toBe(413);
    expect((error as ReportRejected).message).toContain("progress.csv has more than 50,000 data rows");
  });
});
