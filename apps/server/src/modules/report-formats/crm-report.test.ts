import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportFile, week3Report, withoutRow } from "../../../test/report-files.js";
import { messyCsv, messyOptions } from "../../../test/messy-csv.js";
import { readCrmReport } from "./crm-report.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";

const { text: cleanText, clean } = week3Report("crm-attendance.csv");
const file = (text: string | Uint8Array, name = "crm.csv") => reportFile(text, name);
const HEADERS = "Enrollee Name,Benefit Assignment ID,Disbursement Status,Session Date\n";

describe("readCrmReport", () => {
  it("reads the week 3 sample", async () => {
    const report = await readCrmReport(file(cleanText));
    expect(report.errors).toEqual([]);
    expect(report.rows).toHaveLength(80);
    expect(report.rows[0]).toEqual({
      row: 2,
      fullName: "Dmitri Silva",
      firstName: "Dmitri",
      lastName: "Silva",
      email: "dmitri.silva0@students.example.org",
      benefitAssignmentId: "BA-100000",
      status: "absent",
      session: "Week 3 Workshop",
      date: "2026-07-14",
    });
  });

  it("gives the same rows for the sample in every messy shape", async () => {
    const baseline = withoutRow((await readCrmReport(file(cleanText))).rows);
    await fc.assert(
      fc.asyncProperty(messyOptions(clean.rows.length, { "Enrollee Email": ["Email", "E-mail"], "Session Date": ["Date"] }), async (options) => {
        const report = await readCrmReport(file(messyCsv(clean, options)));
        expect(report.errors).toEqual([]);
        expect(withoutRow(report.rows)).toEqual(baseline);
      }),
      { numRuns: 40 },
    );
  });

  it("leaves out each bad row with its error and keeps the others; a row without a name but with its ID is whole", async () => {
    const text = `${HEADERS}Good Row,BA-1,completed,2026-07-14\nNo Id,,Completed,\nBad Status,BA-2,Attended,\nBad Date,BA-3,Excused,July\n,BA-4,Enrolled,\nProto Status,BA-5,constructor,\n,,Completed,\n`;
    const report = await readCrmReport(file(text));
    expect(report.rows.map((r) => [r.fullName, r.benefitAssignmentId, r.status])).toEqual([
      ["Good Row", "BA-1", "completed"],
      ["", "BA-4", "enrolled"],
    ]);
    expect(report.errors).toEqual([
      { file: "crm.csv", row: 3, column: "Benefit Assignment ID", value: "", problem: "is empty (every row needs a Benefit Assignment ID)" },
      { file: "crm.csv", row: 4, column: "Disbursement Status", value: "Attended", problem: "is not Completed, Absent, Excused or Enrolled" },
      { file: "crm.csv", row: 5, column: "Session Date", value: "July", problem: "is not a date" },
      { file: "crm.csv", row: 7, column: "Disbursement Status", value: "constructor", problem: "is not Completed, Absent, Excused or Enrolled" },
      { file: "crm.csv", row: 8, column: "Enrollee Name", value: "", problem: "has no student name" },
      { file: "crm.csv", row: 8, column: "Benefit Assignment ID", value: "", problem: "is empty (every row needs a Benefit Assignment ID)" },
    ]);
  });

  it.each([
    ["Enrollee Name,Disbursement Status\nA,Completed\n", 'crm.csv: required column "Benefit Assignment ID" is missing'],
    ["Enrollee Name,Benefit Assignment ID\nA,BA-1\n", 'crm.csv: required column "Disbursement Status" is missing'],
    ["Benefit Assignment ID,Disbursement Status\nBA-1,Completed\n", /^crm\.csv: required column "Enrollee Name" is missing/],
  ])("refuses %j", async (text, message) => {
    const result = readCrmReport(file(text));
    await expect(result).rejects.toBeInstanceOf(ReportRejected);
    await expect(result).rejects.toThrow(message);
  });
});
