import type { ImportCommit, ImportPreview } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, importRowCounts, postImport, week3Files } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// A preview keeps its plan for the commit of the same files by the same person: that commit
// goes straight to writing. Whatever changed in between (here a school added, so rows the
// preview could not place now can be) makes the commit plan again from the files.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
const otherAdmin = useSignedIn(t, { role: "admin" });
let cohortId = 0;

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary"]) await buildSchool(t.db, { name });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10" })).id;
});

type Line = { type: string; stage?: string; data?: unknown };
const ndjson = (headers: Record<string, string>) => ({ ...headers, accept: "application/x-ndjson" });
const lines = (body: string) => body.trim().split("\n").map((l) => JSON.parse(l) as Line);
const stages = (out: Line[]) => out.filter((l) => l.type === "stage").map((l) => l.stage);
const form = (files = week3Files()) => importForm({ cohortId, weekNumber: 3 }, files);
const resultOf = (out: Line[]) => {
  const last = out.at(-1);
  if (last?.type !== "result") throw new Error(`no result: ${JSON.stringify(last)}`);
  return last.data as ImportCommit;
};
/** importRowCounts gives cohorts, teams, students, … */
const studentsIn = (counts: number[]) => counts[2] ?? 0;

describe("a preview's plan kept for its commit", () => {
  it("is planned again when the data changed after the preview: the commit writes what the files say now", async () => {
    const preview = await postImport(t, "preview", admin.headers, form());
    expect(preview.statusCode, preview.body).toBe(200);
    const previewed = preview.json<ImportPreview>();
    const unplaced = previewed.errorsEncountered.filter((e) => e.type === "unknown_school");
    expect(unplaced.length).toBeGreaterThan(0);
    expect(previewed.summary.totalStudentsInFiles).toBeLessThan(40);

    await buildSchool(t.db, { name: "Northside High School" });
    const before = await importRowCounts(t.db);
    const commit = await postImport(t, "commit", ndjson(admin.headers), form());
    const committed = resultOf(lines(commit.body));
    expect(committed.errorsEncountered.filter((e) => e.type === "unknown_school")).toEqual([]);
    expect(committed.summary.totalStudentsInFiles).toBe(40);
    expect(committed.summary.newStudentsCreatedCount).toBe(40);
    expect(studentsIn(await importRowCounts(t.db)) - studentsIn(before)).toBe(40);
  });

  it("is written as it is when nothing changed: the commit goes straight to writing and answers what the preview said", async () => {
    const files = lateFiles();
    const preview = await postImport(t, "preview", admin.headers, form(files));
    expect(preview.statusCode, preview.body).toBe(200);
    const previewed = preview.json<ImportPreview>();
    expect(previewed.summary.attendanceRecordsUpdated).toBeGreaterThan(0);

    const commit = await postImport(t, "commit", ndjson(admin.headers), form(files));
    const out = lines(commit.body);
    expect(stages(out)).toEqual(["writing"]);
    const { batchId, cohortId: _c, ...committed } = resultOf(out);
    expect(batchId).toBeGreaterThan(0);
    expect(committed).toEqual(previewed);
    const late = await t.db.selectFrom("attendance_records").select("id").where("status", "=", "late").where("cohort_id", "=", cohortId).execute();
    expect(late.length).toBeGreaterThanOrEqual(previewed.summary.attendanceRecordsUpdated);
  });

  it("serves only the person who previewed, once", async () => {
    // The files of each commit differ from what the one before wrote: files that change nothing are refused.
    const preview = await postImport(t, "preview", admin.headers, form());
    expect(preview.statusCode).toBe(200);
    const other = await postImport(t, "commit", ndjson(otherAdmin.headers), form());
    expect(stages(lines(other.body))).toEqual(["reading", "matching", "writing"]);

    await postImport(t, "preview", admin.headers, form(lateFiles()));
    const first = await postImport(t, "commit", ndjson(admin.headers), form(lateFiles()));
    expect(stages(lines(first.body))).toEqual(["writing"]);
    const batches = await t.db.selectFrom("import_batches").select("id").execute();
    // The same files again: planned afresh (the kept plan was used), they change nothing, so no batch.
    const again = lines((await postImport(t, "commit", ndjson(admin.headers), form(lateFiles()))).body);
    expect(stages(again)).toEqual(["reading", "matching"]);
    expect(again.at(-1)).toMatchObject({ type: "error", statusCode: 409, error: expect.stringMatching(/these files change nothing\. Nothing was saved\.$/) });
    expect(await t.db.selectFrom("import_batches").select("id").execute()).toEqual(batches);
  });
});

/** The sample week with every Present a Late: a commit of it after the plain files updates rows. */
function lateFiles() {
  const files = week3Files();
  files.attendanceReport.bytes = new TextEncoder().encode(new TextDecoder().decode(files.attendanceReport.bytes).replaceAll(",Present", ",Late"));
  return files;
}
