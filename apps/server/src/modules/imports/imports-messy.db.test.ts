import type { ImportPreview } from "@tally/contract";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, postImport, week3Files } from "../../../test/import-upload.js";
import { type CsvTable, joinNameColumns, messyCsv, messyOptions, parseCleanCsv } from "../../../test/messy-csv.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// The sample week committed clean, then previewed again in the shapes real exports come in
// (report-formats.md, "Parsing rules"): every shape must read the same rows, so every action
// is `none` and every detail equals the clean preview's.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
let cohortId = 0;
let clean: ImportPreview;

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const files = week3Files();
const tables = {
  meeting: parseCleanCsv(decode(files.attendanceReport.bytes)),
  progress: parseCleanCsv(decode(files.progressReport.bytes)),
  reflection: parseCleanCsv(decode(files.reflectionReport.bytes)),
};

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10" })).id;
  const form = () => importForm({ cohortId, weekNumber: 3 }, week3Files());
  expect((await postImport(t, "commit", admin.headers, form())).statusCode).toBe(200);
  clean = (await postImport(t, "preview", admin.headers, form())).json<ImportPreview>();
});

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
type DateForm = "iso" | "us" | "us-padded" | "day-month";
function writeDate(iso: string, form: DateForm): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  if (form === "us") return `${m}/${d}/${y}`;
  if (form === "us-padded") return `${String(m).padStart(2, "0")}/${String(d).padStart(2, "0")}/${y}`;
  if (form === "day-month") return `${d} ${MONTHS[m - 1]} ${y}`;
  return iso;
}

function mapColumn(table: CsvTable, header: string, f: (cell: string, row: number) => string): CsvTable {
  const index = table.headers.indexOf(header);
  return { headers: table.headers, rows: table.rows.map((r, i) => r.map((c, j) => (j === index ? f(c, i) : c))) };
}

type ProgressForm = "plain" | "percent" | "fraction" | "padded";
function writeProgress(value: string, form: ProgressForm): string {
  if (form === "percent") return `${value}%`;
  if (form === "fraction") return (Number(value) / 100).toFixed(2);
  if (form === "padded") return ` ${value} `;
  return value;
}

const shapes = fc.record({
  meeting: messyOptions(tables.meeting.rows.length, {
    Email: ["E-mail", "Email Address"],
    "Meeting Date": ["Date"],
    "Meeting Type": ["Type"],
    Status: ["Attendance Status", "Attendance"],
    "Advisor Notes": ["Notes"],
  }),
  progress: messyOptions(tables.progress.rows.length, { Email: ["E-mail", "Email Address"] }),
  reflection: messyOptions(tables.reflection.rows.length, { "User Name": ["Name"], Email: ["E-mail"] }),
  names: fc.constantFrom("columns" as const, "Student Name" as const, "Name" as const),
  lastFirst: fc.boolean(),
  dates: fc.constantFrom<DateForm>("iso", "us", "us-padded", "day-month"),
  progressForm: fc.constantFrom<ProgressForm>("plain", "percent", "fraction", "padded"),
});

describe("messy exports through the import", () => {
  it("read the same rows as the clean files, in every combination of shapes", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (s) => {
        let meeting = mapColumn(tables.meeting, "Meeting Date", (c) => writeDate(c, s.dates));
        if (s.names !== "columns") meeting = joinNameColumns(meeting, s.names, s.lastFirst);
        const progress = mapColumn(tables.progress, "Progress", (c) => writeProgress(c, s.progressForm));
        const form = importForm(
          { cohortId, weekNumber: 3 },
          {
            attendanceReport: { name: "meetings.csv", bytes: messyCsv(meeting, s.meeting) },
            progressReport: { name: "progress.csv", bytes: messyCsv(progress, s.progress) },
            reflectionReport: { name: "reflections.csv", bytes: messyCsv(tables.reflection, s.reflection) },
          },
        );
        const res = await postImport(t, "preview", admin.headers, form);
        expect(res.statusCode, res.body).toBe(200);
        const preview = res.json<ImportPreview>();
        expect(preview.errorsEncountered).toEqual([]);
        expect(preview.summary).toEqual(clean.summary);
        expect(preview.processedStudentDetails).toEqual(clean.processedStudentDetails);
      }),
      { numRuns: 25, seed: 11 },
    );
  });
});
