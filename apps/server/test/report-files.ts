import { readFileSync } from "node:fs";
import type { ReportFile } from "../src/modules/report-formats/report-types.js";
import { type CsvTable, parseCleanCsv } from "./messy-csv.js";

// The report readers' test set-up: the week-3 sample files and reports built from text.

const FIXTURES = new URL("./fixtures/week3/", import.meta.url);

/** A week-3 sample file as uploaded: its name and bytes. */
export function week3File(name: string): ReportFile {
  return { name, bytes: new Uint8Array(readFileSync(new URL(name, FIXTURES))) };
}

/** A week-3 sample report's text, and its table for messyCsv. */
export function week3Report(name: string): { text: string; clean: CsvTable } {
  const text = readFileSync(new URL(name, FIXTURES), "utf8");
  return { text, clean: parseCleanCsv(text) };
}

/** A report as the readers take it: text (as UTF-8) or bytes, under a file name. */
export function reportFile(text: string | Uint8Array, name: string): ReportFile {
  return { name, bytes: typeof text === "string" ? new TextEncoder().encode(text) : text };
}

/** The rows without their row numbers, to compare the same rows read from another layout. */
export function withoutRow<T extends { row: number }>(rows: T[]): Array<Omit<T, "row">> {
  return rows.map(({ row: _row, ...rest }) => rest);
}
