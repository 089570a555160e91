import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

// The cell rule itself is the contract's (packages/contract/src/csv.test.ts).
describe("csv writer", () => {
  it("joins records with CRLF and ends with one", () => {
    expect(toCsv([["id", "name"], [1, "a,b"]])).toBe('id,name\r\n1,"a,b"\r\n');
    expect(toCsv([])).toBe("");
  });

  it("quotes a cell that holds a semicolon and defuses a formula after it (Excel in a `;` locale)", () => {
    expect(toCsv([["Mozilla/5.0;=HYPERLINK(1)", "=cmd", -5]])).toBe('"Mozilla/5.0;\'=HYPERLINK(1)",\'=cmd,-5\r\n');
  });
});
