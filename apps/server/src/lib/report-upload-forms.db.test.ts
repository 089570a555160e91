import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool } from "../../test/factories.js";
import { importForm, importRowCounts, week3Files } from "../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../test/test-app.js";

// The forms of report files that readReportUpload reads (the weekly import's preview and
// commit, the flag uploader's process-flags): a text field sent twice is refused rather than
// "the last one wins", and so is a file name longer than 255 characters.

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });
let cohortId = 0;

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10" })).id;
});

const FORMS = [
  { form: "weekly import preview", url: "/api/flag-upload/preview-weekly-data", week: "weekNumber" },
  { form: "weekly import commit", url: "/api/flag-upload/commit-weekly-data", week: "weekNumber" },
  { form: "flag uploader", url: "/api/flag-upload/process-flags", week: "currentWeek" },
] as const;

describe.each(FORMS)("the $form form", ({ url, week }) => {
  const post = (form: FormData) => t.app.inject({ method: "POST", url, headers: superAdmin.headers, payload: form });
  const fields = () => ({ cohortId, [week]: 3 });

  it("refuses a text field sent twice with a 400 naming it, before or after the files, and writes nothing", async () => {
    const before = await importRowCounts(t.db);
    const afterFiles = importForm(fields(), week3Files());
    afterFiles.append(week, "4");
    const beforeFiles = new FormData();
    beforeFiles.append(week, "3");
    beforeFiles.append("cohortId", String(cohortId));
    beforeFiles.append(week, "3");
    for (const [file, { name, bytes }] of Object.entries(week3Files())) beforeFiles.append(file, new Blob([bytes], { type: "text/csv" }), name);
    for (const form of [afterFiles, beforeFiles]) {
      const res = await post(form);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json().error).toBe(`Form field "${week}" was sent more than once. Send each field once.`);
    }
    expect(await importRowCounts(t.db)).toEqual(before);
  });

  it("refuses a file name longer than 255 characters with a 400 that says so, and takes one of 255", async () => {
    const before = await importRowCounts(t.db);
    const files = week3Files();
    const long = `${"é".repeat(252)}.csv`;
    const res = await post(importForm(fields(), { ...files, progressReport: { ...files.progressReport, name: long } }));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json().error).toMatch(/^Progress report.*: the file name is 256 characters long; at most 255 are allowed\. Rename the file and try again\.$/);
    expect(res.body).not.toContain(long);
    expect(await importRowCounts(t.db)).toEqual(before);
    if (url.endsWith("commit-weekly-data")) return;
    const longest = `${"é".repeat(251)}.csv`;
    const taken = await post(importForm(fields(), { ...files, progressReport: { ...files.progressReport, name: longest } }));
    expect(taken.body).not.toMatch(/file name/);
  });
});
