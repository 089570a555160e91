import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AttendanceStatus, MeetingType } from "../src/db/schema.js";
import { type DashboardWorld, useDashboardWorld } from "./dashboard-world.js";
import { type AttendanceInput, buildAttendance, buildStudent } from "./factories.js";
import { filledBeforeAll } from "./filled-before-all.js";
import type { TestAppOptions } from "./test-app.js";

const run = promisify(execFile);

/** Names the PDF must print as they are (accents, diaeresis, Vietnamese, Icelandic). */
export const UNICODE_NAMES = [
  { firstName: "José", lastName: "Álvarez" },
  { firstName: "Zoë", lastName: "Müller" },
  { firstName: "Đặng", lastName: "Thị Hương" },
  { firstName: "Ólafur", lastName: "Þórsson" },
] as const;

/** Students at Cedar College (school C) in the open cohort: enough rows for the table to run over a page. */
export const BULK_STUDENTS = 70;

/**
 * The dashboard world plus, at Alder High (school A) in the open cohort and team Alder Hawks,
 * the UNICODE_NAMES students with attendance, and BULK_STUDENTS more at Cedar College.
 */
export function useReportWorld(options?: TestAppOptions) {
  const world = useDashboardWorld(options);
  const extra = filledBeforeAll(async () => {
    const { t, w } = world;
    const statuses: AttendanceStatus[] = ["present", "late", "present", "absent"];
    const records: AttendanceInput[] = [];
    const unicode = [];
    for (const [i, name] of UNICODE_NAMES.entries()) {
      const s = await buildStudent(t.db, { schoolId: w.schools.a.id, ...name, cohortIds: [w.cohorts.open.id], teams: [w.teams.a2.id] });
      unicode.push(s);
      for (const week of [1, 2, 3, 4]) {
        for (const meetingType of ["mentor", "advisor"] as MeetingType[]) {
          records.push({
            studentId: s.id, schoolId: w.schools.a.id, cohortId: w.cohorts.open.id, teamId: w.teams.a2.id, weekNumber: week, meetingType,
            status: statuses[(i + week + (meetingType === "mentor" ? 0 : 1)) % statuses.length] as AttendanceStatus,
            date: `2026-0${week}-1${meetingType === "mentor" ? 0 : 2}`,
          });
        }
      }
    }
    const bulk = [];
    for (let i = 1; i <= BULK_STUDENTS; i++) {
      bulk.push(
        await buildStudent(t.db, {
          schoolId: w.schools.c.id, firstName: `Pupil${String(i).padStart(3, "0")}`, lastName: "Zed", cohortIds: [w.cohorts.open.id], teams: [w.teams.c1.id],
        }),
      );
    }
    await buildAttendance(t.db, records);
    return { unicode, bulk };
  });
  return { ...world, extra } as typeof world & { extra: typeof extra };
}

export type ReportWorld = DashboardWorld;

/** The PDF's text as pdftotext gives it (poppler-utils; CI installs it), layout kept. */
export async function pdfText(pdf: Buffer, pages?: { first: number; last: number }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tally-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    await writeFile(file, pdf);
    const range = pages ? ["-f", String(pages.first), "-l", String(pages.last)] : [];
    const { stdout } = await run("pdftotext", ["-layout", "-enc", "UTF-8", ...range, file, "-"]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The number of pages (pdfinfo). */
export async function pdfPageCount(pdf: Buffer): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "tally-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    await writeFile(file, pdf);
    const { stdout } = await run("pdfinfo", [file]);
    return Number(/Pages:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
