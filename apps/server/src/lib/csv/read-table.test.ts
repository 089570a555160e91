import { describe, expect, it } from "vitest";
import { ReportRejected } from "./report-rejected.js";
import { detectDelimiter, MAX_RECORD_CHARS, readTable } from "./read-table.js";

describe("detectDelimiter", () => {
  it.each([
    ["a,b,c\n1;2", ","],
    ["a;b;c\n1,2,3,4", ";"],
    ["a\tb\tc", "\t"],
    ['"x,y,z";b;c', ";"],
    ["single", ","],
  ])("%j → %j", (text, expected) => expect(detectDelimiter(text)).toBe(expected));
});

describe("readTable", () => {
  it("reads quoted commas, doubled quotes and line breaks, and numbers rows as a spreadsheet shows them", async () => {
    // Row 2 spans two lines of the file, row 3 is blank, row 4 all empty: Zoë is row 5 (line 6).
    const text = 'Name,Note\r\n"Silva, Dmitri","He said ""hi""\r\nthen left"\r\n\r\n,\r\nZoë,ok\r\n';
    const table = await readTable(text, "a.csv");
    expect(table.headers).toEqual(["Name", "Note"]);
    expect(table.records).toEqual([
      { row: 2, cells: ["Silva, Dmitri", 'He said "hi"\r\nthen left'] },
      { row: 5, cells: ["Zoë", "ok"] },
    ]);
  });

  it("accepts CR line endings and semicolons, pads short rows and keeps long ones", async () => {
    const table = await readTable("A;B;C\r1;2\r\r3;4;5;6\r", "a.csv");
    expect(table.headers).toEqual(["A", "B", "C"]);
    expect(table.records).toEqual([
      { row: 2, cells: ["1", "2", ""] },
      { row: 4, cells: ["3", "4", "5", "6"] },
    ]);
  });

  it("takes the delimiter from Excel's sep= line, which Excel does not show as a row", async () => {
    const table = await readTable("sep=;\r\nName;Note, with comma\r\nA;b,c\r\n", "a.csv");
    expect(table).toEqual({ headers: ["Name", "Note, with comma"], records: [{ row: 2, cells: ["A", "b,c"] }] });
  });

  it("skips blank lines before the header", async () => {
    const table = await readTable("\n\nA\tB\nx\ty", "a.csv");
    expect(table.headers).toEqual(["A", "B"]);
    expect(table.records).toEqual([{ row: 4, cells: ["x", "y"] }]);
  });

  it.each([
    ["", "a.csv is empty"],
    ["  \r\n \n", "a.csv is empty"],
    [",,\n,,\n", "a.csv is empty"],
    ["Name,Email\n\n,\n", "a.csv has no data rows"],
  ])("refuses %j", async (text, message) => {
    await expect(readTable(text, "a.csv")).rejects.toThrow(new ReportRejected(message));
  });

  it("refuses an unclosed quote with the file's name", async () => {
    await expect(readTable('A,B\n1,"open\n2,3\n', "a.csv")).rejects.toThrow(/^a\.csv could not be read as CSV/);
  });

  it("refuses more than 50,000 data rows with 413", async () => {
    const text = `Name\n${"x\n".repeat(50_001)}`;
    const error = await readTable(text, "big.csv").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportRejected);
    expect((error as ReportRejected).statusCode).toBe(413);
    expect((error as ReportRejected).message).toMatch(/^big\.csv has more than 50,000 data rows; split it/);
  });

  it("parses 50,000 rows and lets timers run while it does", async () => {
    const line = 'Someone Long-Name,someone@example.org,Team A,"a note, with a comma",45%,1,2\n';
    const text = `Name,Email,Team,Note,Progress,Past Due,Without\n${line.repeat(50_000)}`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const table = await readTable(text, "big.csv").finally(() => clearInterval(timer));
    expect(table.records).toHaveLength(50_000);
    expect(table.records[49_999]).toEqual({ row: 50_001, cells: ["Someone Long-Name", "someone@example.org", "Team A", "a note, with a comma", "45%", "1", "2"] });
    expect(ticks).toBeGreaterThan(0);
  });

  it("refuses a row longer than MAX_RECORD_CHARS at once, in the header or after it", async () => {
    for (const text of ["x".repeat(10 * 1024 * 1024), `Name,Note\nAda,${"y".repeat(MAX_RECORD_CHARS)}\n`]) {
      const started = Date.now();
      await expect(readTable(text, "long.csv")).rejects.toThrow("long.csv has a row longer than 256 KB");
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    // Just under the limit is still a report.
    const table = await readTable(`Name,Note\nAda,${"y".repeat(MAX_RECORD_CHARS - 100)}\n`, "ok.csv");
    expect(table.records).toHaveLength(1);
  });
});
