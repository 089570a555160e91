import { describe, expect, it } from "vitest";
import { isCsvFile } from "./csv-file.js";

describe("isCsvFile, the rule of both upload forms and the server", () => {
  it("takes a .csv name whatever type the browser reports (Excel exports: text/csv, vnd.ms-excel, none)", () => {
    expect(isCsvFile("week 3.csv", "text/csv")).toBe(true);
    expect(isCsvFile("Week3.CSV", "application/vnd.ms-excel")).toBe(true);
    expect(isCsvFile("progress.csv", "")).toBe(true);
    expect(isCsvFile("progress.csv", "application/octet-stream")).toBe(true);
  });

  it("takes a name without an extension only when the browser calls it text/csv", () => {
    expect(isCsvFile("progress", "text/csv")).toBe(true);
    expect(isCsvFile("progress", "")).toBe(false);
    expect(isCsvFile("progress", "application/vnd.ms-excel")).toBe(false);
  });

  it("refuses another extension even when the type says CSV", () => {
    expect(isCsvFile("progress.xlsx", "application/vnd.ms-excel")).toBe(false);
    expect(isCsvFile("progress.txt", "text/csv")).toBe(false);
    expect(isCsvFile("report.pdf", "application/pdf")).toBe(false);
    expect(isCsvFile("progress.csv.xlsx", "text/csv")).toBe(false);
  });
});
