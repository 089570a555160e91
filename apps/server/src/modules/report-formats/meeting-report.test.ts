import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { week3Expected } from "../../../test/import-upload.js";
import { reportFile, week3Report, withoutRow } from "../../../test/report-files.js";
import { joinNameColumns, messyCsv, messyOptions } from "../../../test/messy-csv.js";
import { meetingStatusOf, meetingTypeOf, readMeetingReport } from "./meeting-report.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";
import type { MeetingRow } from "./report-types.js";

const { text: cleanText, clean } = week3Report("meeting-attendance.csv");
const expected = week3Expected();
const file = (text: string | Uint8Array, name = "meetings.csv") => reportFile(text, name);

/** Line breaks inside notes compared as "\n" whichever the file used. */
const sameBreaks = (rows: Omit<MeetingRow, "row">[]) => rows.map((r) => ({ ...r, advisorNotes: r.advisorNotes?.replace(/\r\n?/g, "\n") ?? null }));
const HEADERS = "First Name,Last Name,Email,School,Meeting Date,Meeting Type,Status\n";

describe("readMeetingReport", () => {
  it("reads the week 3 sample: 80 rows, each student's mentor and advisor status", async () => {
    const report = await readMeetingReport(file(cleanText, "meeting-attendance.csv"));
    expect(report.errors).toEqual([]);
    expect(report.rows).toHaveLength(80);
    for (const student of expected.students) {
      const mine = report.rows.filter((r) => r.email === student.email);
      expect(mine.find((r) => r.meetingType === "mentor")?.status).toBe(student.mentor);
      expect(mine.find((r) => r.meetingType === "advisor")?.status).toBe(student.advisor);
      expect(mine.every((r) => r.fullName === student.name)).toBe(true);
    }
    expect(report.rows[1]).toEqual({
      row: 3,
      fullName: "Dmitri Silva",
      firstName: "Dmitri",
      lastName: "Silva",
      email: "dmitri.silva0@students.example.org",
      studentId: null,
      school: "Riverside Academy",
      team: "Team B2",
      date: "2026-07-16",
      meetingType: "advisor",
      status: "late",
      excused: false,
      advisorNotes: "Great progress on the project brief, keep it up.",
    });
  });

  it("gives the same rows for the sample in every messy shape", async () => {
    const baseline = withoutRow((await readMeetingReport(file(cleanText))).rows);
    const aliases = {
      Email: ["E-mail", "Email Address"],
      "Meeting Date": ["Date"],
      "Meeting Type": ["Type"],
      Status: ["Attendance Status", "Attendance"],
      "Advisor Notes": ["Notes"],
    };
    await fc.assert(
      fc.asyncProperty(messyOptions(clean.rows.length, aliases), fc.constantFrom("split", "full", "last-first"), async (options, names) => {
        const table = names === "split" ? clean : joinNameColumns(clean, names === "full" ? "Student Name" : "Name", names === "last-first");
        const report = await readMeetingReport(file(messyCsv(table, options)));
        expect(report.errors).toEqual([]);
        expect(withoutRow(report.rows)).toEqual(baseline);
      }),
      { numRuns: 60 },
    );
  });

  it("reads generated rows with accented names and awkward notes the same in every shape", async () => {
    const headers = ["First Name", "Last Name", "Email", "School", "Meeting Date", "Meeting Type", "Status", "Advisor Notes"];
    const row = fc.tuple(
      fc.constantFrom("José", "Zoë", "Chloé", "Ana", "Søren", "Ángel"),
      fc.constantFrom("Núñez", "O'Brien", "De la Cruz", "Müller", "Smith"),
      fc.constantFrom("", "a@x.org", "B.C@Example.ORG"),
      fc.constantFrom("Riverside Academy", "École Nord"),
      fc.constantFrom("2026-07-14", "7/14/2026", "14 Jul 2026", "July 14, 2026"),
      fc.constantFrom("Mentor", "advisor", "Mentor Meeting", "Advisor Check-in"),
      fc.constantFrom("Present", "L", "absent", "Excused", "Tardy"),
      fc.constantFrom("", "Said \"hi\", left early", "Line one\nline two", "Café; 50% done\ttab", "  spaced  "),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 12 }), fc.nat(100), async (tuples, seed) => {
        const table = { headers, rows: tuples.map((t) => [...t]) };
        const baseline = withoutRow((await readMeetingReport(file(messyCsv(table)))).rows);
        expect(baseline).toHaveLength(tuples.length);
        const options = fc.sample(messyOptions(tuples.length, { Status: ["Attendance"], "Advisor Notes": ["Notes"] }), { seed, numRuns: 1 })[0]!;
        const report = await readMeetingReport(file(messyCsv(joinNameColumns(table, "Name", seed % 2 === 0), options)));
        expect(report.errors).toEqual([]);
        expect(sameBreaks(withoutRow(report.rows))).toEqual(sameBreaks(baseline));
      }),
      { numRuns: 40 },
    );
  });

  it("reads 50,000 rows while timers keep running", async () => {
    const text = HEADERS + "Zoë,Núñez,z@x.org,Riverside,3/2/2026,Mentor,Present\n".repeat(50_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const report = await readMeetingReport(file(text)).finally(() => clearInterval(timer));
    expect(report.rows).toHaveLength(50_000);
    expect(report.rows[49_999]).toMatchObject({ row: 50_001, fullName: "Zoë Núñez", date: "2026-03-02" });
    expect(ticks).toBeGreaterThan(0);
  });

  it("reads the date forms, status words and meeting-type words", async () => {
    const text =
      HEADERS +
      "José,Núñez,,Riverside,3/2/2026,mentor meeting,P\n" +
      "Zoë,Ål,,Riverside,2 Mar 2026,Advisor Check-in,tardy\n" +
      "Ann,Lee,ANN@X.ORG,Riverside,03/02/2026,ADVISOR,Excused\n" +
      "Ann,Lee,,Riverside,2026-03-02,Mentor,a\n";
    const report = await readMeetingReport(file(text));
    expect(report.errors).toEqual([]);
    // Excused is absent, and only it is kept as excused.
    expect(report.rows.map((r) => [r.date, r.meetingType, r.status, r.excused, r.email])).toEqual([
      ["2026-03-02", "mentor", "present", false, null],
      ["2026-03-02", "advisor", "late", false, null],
      ["2026-03-02", "advisor", "absent", true, "ann@x.org"],
      ["2026-03-02", "mentor", "absent", false, null],
    ]);
  });

  it("reads a file's numeric dates day/month when one of them can only be that", async () => {
    const text = `${HEADERS}A,B,,S,3/2/2026,Mentor,Present\nA,B,,S,13/2/2026,Advisor,Present\n`;
    const report = await readMeetingReport(file(text));
    expect(report.rows.map((r) => r.date)).toEqual(["2026-02-03", "2026-02-13"]);
  });

  it("leaves out each bad row with its error and keeps the others", async () => {
    const text =
      "First Name,Last Name,Student ID,Meeting Date,Meeting_Type,Status\n" +
      "Good,Row,,2026-03-02,Mentor,Present\n" +
      "Bad,Date,,2026-02-30,Mentor,Present\n" +
      "Bad,Type,,2026-03-02,Coach,Present\n" +
      "Bad,Status,,2026-03-02,Mentor,Sick\n" +
      ",,,2026-03-02,Mentor,Present\n" +
      "Bad,Id,x7,2026-03-02,Mentor,Present\n" +
      "Empty,Date,,,Mentor,Present\n" +
      "Both,Types,,2026-03-02,Mentor and advisor,Present\n";
    const report = await readMeetingReport(file(text));
    expect(report.rows.map((r) => r.fullName)).toEqual(["Good Row"]);
    expect(report.errors).toEqual([
      { file: "meetings.csv", row: 3, column: "Meeting Date", value: "2026-02-30", problem: "is not a date" },
      { file: "meetings.csv", row: 4, column: "Meeting_Type", value: "Coach", problem: "is not Mentor or Advisor" },
      { file: "meetings.csv", row: 5, column: "Status", value: "Sick", problem: "is not Present, Late, Absent or Excused" },
      { file: "meetings.csv", row: 6, column: "First Name", value: "", problem: "has no student name" },
      { file: "meetings.csv", row: 7, column: "Student ID", value: "x7", problem: "is not a student id" },
      { file: "meetings.csv", row: 8, column: "Meeting Date", value: "", problem: "is empty" },
      { file: "meetings.csv", row: 9, column: "Meeting_Type", value: "Mentor and advisor", problem: "is not Mentor or Advisor" },
    ]);
  });

  it.each([
    ["First Name,Last Name,Meeting Type,Status\nA,B,Mentor,P\n", 'meetings.csv: required column "Meeting Date" is missing'],
    ["First Name,Last Name,Meeting Date,Status\nA,B,2026-03-02,P\n", 'meetings.csv: required column "Meeting Type" is missing'],
    ["First Name,Last Name,Meeting Date,Meeting Type\nA,B,2026-03-02,Mentor\n", 'meetings.csv: required column "Status" is missing'],
    ["First Name,Email,Meeting Date,Meeting Type,Status\nA,,2026-03-02,Mentor,P\n", /^meetings\.csv: required column "Student Name" is missing/],
    ["Name,Meeting Date,Type,Status,STATUS \nA B,2026-03-02,Mentor,P,P\n", 'meetings.csv: ambiguous column for "Status": both "Status" and "STATUS" match'],
    ["", "meetings.csv is empty"],
    [HEADERS, "meetings.csv has no data rows"],
  ])("refuses %j", async (text, message) => {
    const result = readMeetingReport(file(text));
    await expect(result).rejects.toBeInstanceOf(ReportRejected);
    await expect(result).rejects.toThrow(message);
  });

  it("refuses a binary file", async () => {
    await expect(readMeetingReport(file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "week.pdf"))).rejects.toThrow(/^week\.pdf is not a CSV file/);
  });
});

describe("meeting words", () => {
  it("matches on the word", () => {
    expect(meetingTypeOf("Weekly Mentor Session")).toBe("mentor");
    expect(meetingTypeOf("adviser")).toBe("advisor");
    expect(meetingTypeOf("Tormentor")).toBeNull();
    expect(meetingStatusOf(" LATE ")).toBe("late");
    expect(meetingStatusOf("Presented")).toBeNull();
    expect(meetingStatusOf("constructor")).toBeNull();
    expect(meetingStatusOf("toString")).toBeNull();
  });
});
