import { csvCell, REPORT_FILES, type ReportDataResponse, STUDENTS_CSV_COLUMNS, type StudentsResponse } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { filledBeforeAll } from "../../../test/filled-before-all.js";
import { parseCleanCsv } from "../../../test/messy-csv.js";
import { buildStudent } from "../../../test/factories.js";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { BULK_STUDENTS, UNICODE_NAMES, useReportWorld } from "../../../test/report-world.js";
import { formulaCells, readAsSpreadsheet } from "../../../test/spreadsheet-reading.js";

const { t, w, as } = useReportWorld();

// Names an import could carry that a spreadsheet would run as formulas.
const FORMULA_NAMES = [
  { firstName: "=HYPERLINK(\"http://evil.test\",\"x\")", lastName: "Formula" },
  { firstName: "+SUM(A1:A2)", lastName: "Plus" },
  { firstName: "@cmd", lastName: "-2+3" },
];
// Formulas after a separator that Excel in a `;` locale, a tab-separated reader or a reader
// that ignores quotes would start a new cell or record at.
const SEPARATED_FORMULA_NAMES = [
  { firstName: "Ann;=HYPERLINK(\"http://evil.test\",\"x\")", lastName: "Semi" },
  { firstName: "Bo;-2+3;+1", lastName: "x;@cmd" },
  { firstName: "Cy;\"=1+1\"", lastName: "Line\n=1+1" },
  { firstName: "Di\t=1+1", lastName: "Ed,=1+1;" },
];
filledBeforeAll(async () => {
  for (const n of [...FORMULA_NAMES, ...SEPARATED_FORMULA_NAMES]) {
    await buildStudent(t.db, { schoolId: w.schools.b.id, ...n, cohortIds: [w.cohorts.open.id] });
  }
  return {};
});

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

/** Records of the CSV (RFC 4180, CRLF between records, as Excel writes): header first. */
function parseCsv(text: string): string[][] {
  expect(text.replace(/"[^"]*"/g, "").replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  const { headers, rows } = parseCleanCsv(text);
  return [headers, ...rows];
}

describe("GET /api/reports/students.csv", () => {
  it("is a UTF-8 download with a byte order mark and the fixed file name", async () => {
    const res = await get("admin", "/api/reports/students.csv");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${REPORT_FILES.csv}"`);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(res.rawPayload.subarray(3).toString("utf8"));
    expect(rows[0]).toEqual([...STUDENTS_CSV_COLUMNS]);
  });

  it.each(["admin", "districtAB", "schoolA"] as const)("holds every student of the filters for %s, in the list's order, with the report data's figures", async (user) => {
    const res = await get(user, "/api/reports/students.csv");
    const rows = parseCsv(res.rawPayload.toString("utf8").replace(/^\uFEFF/, "")).slice(1);
    const list = (await get(user, "/api/students")).json<StudentsResponse>();
    expect(rows.length).toBe(list.total);
    const data = (await get(user, "/api/reports/data")).json<ReportDataResponse>();
    expect(rows).toEqual(
      data.students.map((s) =>
        [s.first_name, s.last_name, s.school_name, s.cohort_name, s.team_name, s.presentPct, s.latePct, s.absentPct].map(
          (v) => parseCleanCsv(csvCell(v)).headers[0] ?? "",
        ),
      ),
    );
  });

  it("holds all rows, not the PDF's 100", async () => {
    const rows = parseCsv((await get("admin", `/api/reports/students.csv?schoolId=${w.schools.c.id}`)).rawPayload.toString("utf8")).slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(BULK_STUDENTS);
  });

  it("keeps accents intact", async () => {
    const text = (await get("schoolA", "/api/reports/students.csv")).rawPayload.toString("utf8");
    for (const n of UNICODE_NAMES) expect(text).toContain(`${n.firstName},${n.lastName}`);
  });

  it("neutralises cells a spreadsheet would read as formulas", async () => {
    const text = (await get("admin", `/api/reports/students.csv?schoolId=${w.schools.b.id}`)).rawPayload.toString("utf8");
    const rows = parseCsv(text.replace(/^\uFEFF/, ""));
    const firstNames = rows.map((r) => r[0]);
    expect(firstNames).toContain("'=HYPERLINK(\"http://evil.test\",\"x\")");
    expect(firstNames).toContain("'+SUM(A1:A2)");
    expect(rows.find((r) => r[0] === "'@cmd")?.[1]).toBe("'-2+3");
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+@]/);
  });

  it("starts no formula when read back with `;` as the separator, and quotes every cell that holds one", async () => {
    const text = (await get("admin", `/api/reports/students.csv?schoolId=${w.schools.b.id}`)).rawPayload.toString("utf8");
    expect(formulaCells(readAsSpreadsheet(text, ";"))).toEqual([]);
    expect(formulaCells(readAsSpreadsheet(text, "\t"))).toEqual([]);
    const rows = readAsSpreadsheet(text, ",");
    expect(formulaCells(rows)).toEqual([]);
    // Read with its own separator, each name is one cell: a `'` before what a formula would start with.
    const names = rows.map((r) => [r[0], r[1]]);
    expect(names).toContainEqual(["Ann;'=HYPERLINK(\"http://evil.test\",\"x\")", "Semi"]);
    expect(names).toContainEqual(["Bo;'-2+3;'+1", "x;'@cmd"]);
    expect(names).toContainEqual(["Cy;'\"=1+1\"", "Line\n'=1+1"]);
    expect(names).toContainEqual(["Di\t'=1+1", "Ed,'=1+1;"]);
    expect(text).toContain('"Ed,\'=1+1;"');
  });
});

describe("csvCell", () => {
  it("is the contract's rule: formulas get a quote mark, plain numbers stay numbers, RFC 4180 quoting", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("-5")).toBe("-5");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell("-x")).toBe("'-x");
    expect(csvCell("\tTab")).toBe("'\tTab");
    expect(csvCell('He said "hi", twice')).toBe('"He said ""hi"", twice"');
    expect(csvCell(null)).toBe("");
    expect(csvCell("José")).toBe("José");
  });
});
