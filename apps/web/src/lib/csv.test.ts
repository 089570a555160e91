import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("csv writer", () => {
  it("quotes fields with a comma, quote, CR or LF and doubles inner quotes (RFC 4180)", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell("a\rb")).toBe('"a\rb"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("neutralises cells that a spreadsheet would run as a formula", () => {
    expect(csvCell("=HYPERLINK(\"http://evil\")")).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+cmd")).toBe("'+cmd");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tTAB")).toBe("'\tTAB");
    expect(csvCell("\rCR")).toBe('"\'\rCR"');
  });

  it("keeps numbers as numbers, negative ones included", () => {
    expect(csvCell(42)).toBe("42");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell("-5")).toBe("-5");
    expect(csvCell("-0.25")).toBe("-0.25");
    expect(csvCell(1.5)).toBe("1.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(true)).toBe("true");
  });

  it("joins records with CRLF and ends with one", () => {
    expect(toCsv([["id", "name"], [1, "a,b"]])).toBe('id,name\r\n1,"a,b"\r\n');
    expect(toCsv([])).toBe("");
  });
});
