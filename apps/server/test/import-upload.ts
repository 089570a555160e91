import { readFileSync } from "node:fs";
import type { ImportFileField } from "@tally/contract";
import { type Kysely, sql } from "kysely";
import type { Database } from "../src/db/schema.js";
import { week3File } from "./report-files.js";
import type { TestApp } from "./test-app.js";

const FIXTURES = new URL("./fixtures/week3/", import.meta.url);

/** The week-3 sample reports (../shared/fixtures/reports/week3). */
export function week3Files(): Record<ImportFileField, { name: string; bytes: Uint8Array }> {
  return {
    attendanceReport: week3File("meeting-attendance.csv"),
    progressReport: week3File("progress.csv"),
    reflectionReport: week3File("reflections.csv"),
  };
}

export function week3Expected(): {
  week: number;
  weeks: number;
  expectedHours: number;
  cohortStart: string;
  students: Array<{ name: string; email: string; school: string; team: string; benefitAssignmentId: string; mentor: string; advisor: string; hours: number | null; flagUploaderFlags: string[] }>;
} {
  return JSON.parse(readFileSync(new URL("expected.json", FIXTURES), "utf8"));
}

/** The fixture's cohort as new-cohort form fields (6 weeks from 2026-06-29, 120 hours). */
export const WEEK3_NEW_COHORT = {
  cohortName: "Summer Week 3",
  programType: "Internship (6 week)",
  startDate: "2026-06-29",
  endDate: "2026-08-10",
  totalExpectedHours: "120",
  weekNumber: "3",
};

type FileInput = { name: string; bytes: Uint8Array | string; type?: string };

/** The multipart body the web form sends. */
export function importForm(fields: Record<string, string | number>, files: Partial<Record<string, FileInput>>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  for (const [field, file] of Object.entries(files)) {
    if (!file) continue;
    form.append(field, new Blob([file.bytes], { type: file.type ?? "text/csv" }), file.name);
  }
  return form;
}

export type ImportStep = "preview" | "commit";

export function postImport(t: Pick<TestApp, "app">, step: ImportStep, headers: Record<string, string>, form: FormData) {
  return t.app.inject({ method: "POST", url: `/api/flag-upload/${step}-weekly-data`, headers, payload: form });
}

const IMPORT_TABLES = ["cohorts", "teams", "students", "student_cohorts", "student_teams", "attendance_records", "weekly_data"] as const;

/** Every row of the tables an import touches, as text: equal snapshots mean an identical state. */
export async function importTablesSnapshot(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of IMPORT_TABLES) {
    const { rows } = await sql<{ r: string }>`select t::text as r from ${sql.table(table)} t order by 1`.execute(db);
    out[table] = rows.map((row) => row.r);
  }
  return out;
}

/** Row counts of the tables an import writes: a refused import must leave them as they were. */
export async function importRowCounts(db: Kysely<Database>): Promise<number[]> {
  const counts: number[] = [];
  for (const table of ["cohorts", "teams", "students", "attendance_records", "weekly_data", "import_batches"]) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
    counts.push(rows[0]?.n ?? -1);
  }
  return counts;
}
