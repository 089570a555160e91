import { describe, expect, it } from "vitest";
import { csvCell, csvRecord } from "./csv.js";

describe("csvCell: the formula-safe CSV cell of server and web", () => {
  it("quotes a cell that holds a comma, a semicolon, a quote, CR or LF, doubling inner quotes (RFC 4180)", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell("a\rb")).toBe('"a\rb"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("José")).toBe("José");
  });

  it("puts a ' before a first character that would start a formula, unless the cell is a plain number", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+cmd")).toBe("'+cmd");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tTAB")).toBe("'\tTAB");
    expect(csvCell("\rCR")).toBe('"\'\rCR"');
    expect(csvCell("-5")).toBe("-5");
    expect(csvCell("-0.25")).toBe("-0.25");
  });

  it("puts a ' after each separator a locale may use, where a formula would start there", () => {
    expect(csvCell("Ann;=HYPERLINK(1)")).toBe('"Ann;\'=HYPERLINK(1)"');
    expect(csvCell("a,+1")).toBe('"a,\'+1"');
    expect(csvCell("a\t@x")).toBe("a\t'@x");
    expect(csvCell("a\n-1+1")).toBe('"a\n\'-1+1"');
    expect(csvCell("a\r\n=1")).toBe('"a\r\n\'=1"');
    expect(csvCell("a;\t=1")).toBe('"a;\'\t\'=1"');
    // A quoted field can start a formula too, where the separator is not the file's own.
    expect(csvCell('a;"=1+1"')).toBe('"a;\'""=1+1"""');
    expect(csvCell("1;-2")).toBe('"1;\'-2"');
  });

  it("leaves JSON's commas and quotes alone, so a JSON cell reads back as the same JSON", () => {
    const json = JSON.stringify({ name: "A", ids: [1, 2], nested: { x: "y" } });
    expect(csvCell(json)).toBe(`"${json.replaceAll('"', '""')}"`);
  });

  it("writes numbers as numbers and nothing as an empty cell", () => {
    expect(csvCell(42)).toBe("42");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(1.5)).toBe("1.5");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(true)).toBe("true");
  });

  it("ends each record with CRLF", () => {
    expect(csvRecord(["id", "a;=b", 3])).toBe('id,"a;\'=b",3\r\n');
  });
});
