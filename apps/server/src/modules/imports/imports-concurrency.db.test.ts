import type { ImportCommit, ImportPreview } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Commits at the same moment take turns and never duplicate a student; progress streams as
// NDJSON lines to a client that asks for them.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
let cohortId = 0;

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10" })).id;
});

const count = async (table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n;

describe("concurrent commits", () => {
  it("serialises two commits of the same cohort and week: one creates, the other finds everything in place and records nothing", async () => {
    const commit = () => postImport(t, "commit", admin.headers, importForm({ cohortId, weekNumber: 3 }, week3Files()));
    const [a, b] = await Promise.all([commit(), commit()]);
    const [done, refused] = a.statusCode === 200 ? [a, b] : [b, a];
    expect([done.statusCode, refused.statusCode], `${a.body}\n${b.body}`).toEqual([200, 409]);
    expect(done.json<ImportCommit>().summary.newStudentsCreatedCount).toBe(40);
    // The second plans again after the first and finds nothing to change: no empty batch.
    expect(refused.json().error).toMatch(/^Week 3 of Summer was imported on .*; these files change nothing\. Nothing was saved\.$/);
    expect(await count("import_batches")).toBe(1);
    expect(await count("students")).toBe(40);
    expect(await count("attendance_records")).toBe(80);
    expect(await count("weekly_data")).toBe(40);
  });

  it("lets only one of two commits create the same new cohort", async () => {
    const commit = () => postImport(t, "commit", admin.headers, importForm({ ...WEEK3_NEW_COHORT, cohortName: "Twin" }, week3Files()));
    const results = await Promise.all([commit(), commit()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().error).toMatch(/A cohort named "Twin" already exists/);
    const twins = await t.db.selectFrom("cohorts").select("id").where("name", "=", "Twin").execute();
    expect(twins).toHaveLength(1);
  });
});

const lines = (body: string) =>
  body
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; stage?: string; data?: unknown; statusCode?: number; error?: string });

describe("progress as NDJSON", () => {
  const ndjson = () => ({ ...admin.headers, accept: "application/x-ndjson" });

  it("streams the stages of a preview, then its result", async () => {
    const res = await postImport(t, "preview", ndjson(), importForm({ cohortId, weekNumber: 3 }, week3Files()));
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    const out = lines(res.body);
    expect(out.slice(0, -1)).toEqual([{ type: "stage", stage: "reading" }, { type: "stage", stage: "matching" }]);
    expect(out.at(-1)?.type).toBe("result");
    expect((out.at(-1)?.data as ImportPreview | undefined)?.summary.totalStudentsInFiles).toBe(40);
  });

  it("streams reading, matching and writing for a commit of files not previewed", async () => {
    // The preview above was of these files under another name: its plan is not this commit's.
    const files = week3Files();
    files.attendanceReport.name = "meetings-week3.csv";
    // Week 4: week 3 of these files is in the database already (files that change nothing are refused).
    const res = await postImport(t, "commit", ndjson(), importForm({ cohortId, weekNumber: 4 }, files));
    const out = lines(res.body);
    expect(out.filter((l) => l.type === "stage").map((l) => l.stage)).toEqual(["reading", "matching", "writing"]);
    expect((out.at(-1)?.data as ImportCommit | undefined)?.batchId).toBeGreaterThan(0);
  });

  it("ends with an error line when the import is refused after the upload", async () => {
    const res = await postImport(t, "preview", ndjson(), importForm({ cohortId, weekNumber: 9 }, week3Files()));
    const out = lines(res.body);
    expect(out.at(-1)).toEqual({ type: "error", statusCode: 400, code: "VALIDATION_ERROR", error: expect.stringMatching(/Week 9 is outside/) });
  });

  it("answers a refusal before the upload is read with its status", async () => {
    const res = await postImport(t, "preview", { accept: "application/x-ndjson" }, importForm({ cohortId, weekNumber: 3 }, week3Files()));
    expect(res.statusCode).toBe(401);
  });
});
