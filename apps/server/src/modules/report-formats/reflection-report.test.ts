import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportFile, week3Report, withoutRow } from "../../../test/report-files.js";
import { lastFirstNames, messyCsv, messyOptions } from "../../../test/messy-csv.js";
import { readReflectionReport } from "./reflection-report.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";

const { text: cleanText, clean } = week3Report("reflections.csv");
const file = (text: string | Uint8Array, name = "reflections.csv") => reportFile(text, name);
/** Line breaks inside an answer compared as "\n" whichever the file used. */
const same = (text: string | null) => text?.replace(/\r\n?/g, "\n") ?? null;
const HEADERS = "User Name,How many hours did you work this week?,How are you feeling (1-5)?,Reflect on your week,Submitted\n";

describe("readReflectionReport", () => {
  it("reads the week 3 sample, with quoted commas, doubled quotes and line breaks", async () => {
    const report = await readReflectionReport(file(cleanText));
    expect(report.errors).toEqual([]);
    expect(report.rows).toHaveLength(30);
    expect(report.rows[0]).toMatchObject({
      row: 2,
      fullName: "Dmitri Silva",
      hours: 1.5,
      rating: 1,
      reflection: 'Honestly it was hard to get there on time because the bus changed routes, "but" I managed.',
      submitted: null,
    });
    expect(report.rows[1]).toMatchObject({ row: 3, reflection: expect.stringContaining("matter.\nNext week") });
    // Rows as a spreadsheet shows them: the line break inside row 3's reflection starts no row.
    expect(report.rows[2]?.row).toBe(4);
  });

  it("gives the same rows for the sample in every messy shape", async () => {
    const baseline = withoutRow((await readReflectionReport(file(cleanText))).rows);
    const aliases = { "User Name": ["Name", "Student Name"], Email: ["E-mail", "Email Address"] };
    await fc.assert(
      fc.asyncProperty(messyOptions(clean.rows.length, aliases), fc.boolean(), async (options, lastFirst) => {
        const table = lastFirst ? lastFirstNames(clean, "User Name") : clean;
        const report = await readReflectionReport(file(messyCsv(table, options)));
        expect(report.errors).toEqual([]);
        const rows = withoutRow(report.rows);
        expect(rows.map((r) => ({ ...r, reflection: same(r.reflection) }))).toEqual(baseline.map((r) => ({ ...r, reflection: same(r.reflection) })));
      }),
      { numRuns: 40 },
    );
  });

  it("reads hours, rating, text and submitted date", async () => {
    const text = `${HEADERS}Zoë Ål,7.5,5,"  Good week  ",2 Mar 2026\nSilva Dmitri,0,1,,3/2/2026 10:15 AM\n`;
    const report = await readReflectionReport(file(text));
    expect(report.errors).toEqual([]);
    expect(report.rows.map((r) => [r.hours, r.rating, r.reflection, r.submitted])).toEqual([
      [7.5, 5, "Good week", "2026-03-02"],
      [0, 1, null, "2026-03-02"],
    ]);
  });

  it("leaves out each bad row with its error and keeps the others", async () => {
    const text = `${HEADERS}Good Row,10,3,,\nBad Hours,many,3,,\nToo Many,200,3,,\nBad Rating,10,6,,\nHalf Rating,10,2.5,,\nBad Date,10,3,,someday\nNo Hours,,3,,\n`;
    const report = await readReflectionReport(file(text));
    expect(report.rows.map((r) => r.fullName)).toEqual(["Good Row"]);
    const hours = "How many hours did you work this week?";
    const rating = "How are you feeling (1-5)?";
    expect(report.errors).toEqual([
      { file: "reflections.csv", row: 3, column: hours, value: "many", problem: "is not a number of hours from 0 to 168" },
      { file: "reflections.csv", row: 4, column: hours, value: "200", problem: "is not a number of hours from 0 to 168" },
      { file: "reflections.csv", row: 5, column: rating, value: "6", problem: "is not a whole number from 1 to 5" },
      { file: "reflections.csv", row: 6, column: rating, value: "2.5", problem: "is not a whole number from 1 to 5" },
      { file: "reflections.csv", row: 7, column: "Submitted", value: "someday", problem: "is not a date" },
      { file: "reflections.csv", row: 8, column: hours, value: "", problem: "is empty" },
    ]);
  });

  it.each([
    ["User Name,Rating\nA,3\n", 'reflections.csv: required column "hours worked" is missing'],
    ["User Name,Hours\nA,3\n", 'reflections.csv: required column "feelings rating" is missing'],
    [
      "User Name,Hours at placement,Hours travelling,Rating\nA,3,1,4\n",
      'reflections.csv: ambiguous column for "hours worked": both "Hours at placement" and "Hours travelling" match',
    ],
    ["User Name,Hours,Rating,Reflect on it,Describe it\nA,3,4,x,y\n", /ambiguous column for "reflection text"/],
  ])("refuses %j", async (text, message) => {
    const result = readReflectionReport(file(text));
    await expect(result).rejects.toBeInstanceOf(ReportRejected);
    await expect(result).rejects.toThrow(message);
  });
});
