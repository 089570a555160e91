import { describe, expect, it } from "vitest";
import { encodeWindows1252, joinNameColumns, lastFirstNames, messyCsv, messyText, parseCleanCsv } from "./messy-csv.js";

// The helper must really produce the shapes the reader tests claim to cover.
const table = { headers: ["First Name", "Last Name", "Note"], rows: [["José", "Núñez", 'a, "b"\nc'], ["Zoë", "Ål", ""]] };

describe("messy CSV helper", () => {
  it("quotes only what needs it, with the chosen delimiter and line ending", () => {
    expect(messyText(table, { delimiter: ";", eol: "\r" })).toBe('First Name;Last Name;Note\rJosé;Núñez;"a, ""b""\nc"\rZoë;Ål;\r');
    expect(messyText(table, { quoteAll: true, noFinalEol: true, eol: "\n" })).toBe(
      '"First Name","Last Name","Note"\n"José","Núñez","a, ""b""\nc"\n"Zoë","Ål",""',
    );
  });

  it("styles and renames headers, adds and shuffles columns, inserts blank and empty rows", () => {
    const text = messyText(table, { headerStyle: "snake", renames: { Note: "Advisor Notes" }, extraColumns: true, shuffleSeed: 7, blankAfter: [0, 1], eol: "\n" });
    const lines = parseCleanCsv(text);
    expect([...lines.headers].sort()).toEqual(["Cohort Ref", "Export Batch", "advisor_notes", "first_name", "last_name"]);
    expect(lines.headers).not.toEqual(["Export Batch", "first_name", "last_name", "advisor_notes", "Cohort Ref"]);
    expect(lines.rows.filter((r) => r.every((c) => c === ""))).toHaveLength(2);
  });

  it("writes a BOM in UTF-8 and Windows-1252 bytes on request", () => {
    expect([...messyCsv({ headers: ["A"], rows: [["é"]] }, { bom: true, eol: "\n" })]).toEqual([0xef, 0xbb, 0xbf, 0x41, 0x0a, 0xc3, 0xa9, 0x0a]);
    expect([...encodeWindows1252("Zoë €’")]).toEqual([0x5a, 0x6f, 0xeb, 0x20, 0x80, 0x92]);
    expect(() => encodeWindows1252("日本")).toThrow(/no Windows-1252 byte/);
  });

  it("joins names, optionally Last, First", () => {
    expect(joinNameColumns(table, "Name", true).rows.map((r) => r[0])).toEqual(["Núñez, José", "Ål, Zoë"]);
    expect(lastFirstNames({ headers: ["Name"], rows: [["Ana de la Cruz"], ["Cher"]] }, "Name").rows).toEqual([["de la Cruz, Ana"], ["Cher"]]);
  });
});
