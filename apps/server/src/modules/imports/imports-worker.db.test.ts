import type { ImportPreview } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSchool } from "../../../test/factories.js";
import { importForm, importRowCounts, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Reading, matching and planning run in a worker thread with a capped heap (IMPORT_WORKER_HEAP_MB).
// A week too large for that cap is refused clearly and writes nothing; the next import runs.

const HEAP_MB = 32;
const t = useTestApp({ config: { importWorkerHeapMb: HEAP_MB } });
const admin = useSignedIn(t, { role: "admin" });

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
});

const rowCounts = () => importRowCounts(t.db);

/** A meeting report of 50,000 distinct students: too many rows for a 32 MB heap. */
function bigMeetingReport(): string {
  const lines = ["First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status"];
  for (let i = 0; i < 50_000; i++) {
    lines.push(`Student${i},Surname${i},student${i}@example.org,Riverside Academy,Team ${i % 40},2026-07-14,Mentor,Present`);
  }
  return `${lines.join("\n")}\n`;
}

describe("the import's worker thread", () => {
  it("refuses a week that needs more than its heap with 413, writes nothing, and the next import runs", async () => {
    const before = await rowCounts();
    const files = { ...week3Files(), attendanceReport: { name: "whole-district.csv", bytes: bigMeetingReport() } };
    for (const step of ["preview", "commit"] as const) {
      const res = await postImport(t, step, admin.headers, importForm(WEEK3_NEW_COHORT, files));
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json<{ error: string }>().error).toMatch(
        new RegExp(`need more than the ${HEAP_MB} MB this server gives one import\\. Split them into smaller files`),
      );
    }
    expect(await rowCounts()).toEqual(before);

    const res = await postImport(t, "preview", admin.headers, importForm(WEEK3_NEW_COHORT, week3Files()));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ImportPreview>().summary.totalStudentsInFiles).toBe(40);
  });
});
