import { describe, expect, it } from "vitest";
import { week3Expected } from "../../../test/import-upload.js";
import { week3File } from "../../../test/report-files.js";
import { calculateFlags } from "./flag-rules.js";
import { readCrmReport } from "./crm-report.js";
import { readProgressReport } from "./progress-report.js";
import { readReflectionReport } from "./reflection-report.js";

// The week 3 sample end to end through the readers and the flag rules: the flag uploader's
// flags for every student are those expected.json gives.
const expected = week3Expected();
const byEmail = <T extends { email: string | null }>(rows: T[]) => new Map(rows.map((r) => [r.email, r]));

describe("week 3 sample, flag uploader", () => {
  it("gives every student of the CRM report the expected flags", async () => {
    const [progress, reflections, crm] = await Promise.all([
      readProgressReport(week3File("progress.csv")),
      readReflectionReport(week3File("reflections.csv")),
      readCrmReport(week3File("crm-attendance.csv")),
    ]);
    expect([progress.errors, reflections.errors, crm.errors]).toEqual([[], [], []]);

    const progressOf = byEmail(progress.rows);
    const reflectionOf = byEmail(reflections.rows);
    const crmEmails = [...new Set(crm.rows.map((r) => r.email))];
    expect(crmEmails).toHaveLength(expected.students.length);

    for (const student of expected.students) {
      const sessions = crm.rows.filter((r) => r.email === student.email);
      const p = progressOf.get(student.email);
      const r = reflectionOf.get(student.email);
      const flags = calculateFlags({
        week: expected.week,
        weekCount: expected.weeks,
        totalExpectedHours: expected.expectedHours,
        inPlatformSource: sessions.length > 0,
        progress: p ? { progress: p.progress, pastDue: p.pastDue } : null,
        reflection: r ? { hours: r.hours, rating: r.rating } : null,
        crm: {
          absent: sessions.filter((s) => s.status === "absent").length,
          enrolled: sessions.filter((s) => s.status === "enrolled").length,
        },
      });
      expect({ student: student.email, flags: flags.map((f) => f.code) }).toEqual({ student: student.email, flags: student.flagUploaderFlags });
    }
  });
});
