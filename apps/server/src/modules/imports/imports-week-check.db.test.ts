import { IMPORT_MESSAGES, type ImportPreview } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool } from "../../../test/factories.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { filledBeforeAll } from "../../../test/filled-before-all.js";

// Issue 29: the sample week (all 80 meeting dates in week 3, 13–19 Jul) chosen as another
// week is said once, with the week the dates fall in, instead of 80 warnings.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
filledBeforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  return {};
});

const preview = async (weekNumber: string) => {
  const res = await postImport(t, "preview", admin.headers, importForm({ ...WEEK3_NEW_COHORT, weekNumber }, week3Files()));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportPreview>();
};

describe("meeting dates outside the chosen week", () => {
  it("says once that all 80 dates fall in week 3 when week 2 is chosen, with no warning a row", async () => {
    const p = await preview("2");
    expect(p.week).toEqual({ number: 2, start: "2026-07-06", end: "2026-07-12" });
    expect(p.weekMismatch).toEqual({ dateCount: 80, outsideCount: 80, suggested: { number: 3, start: "2026-07-13", end: "2026-07-19", dateCount: 80 } });
    expect(p.warnings.filter((w) => w.type === "date_outside_week")).toEqual([]);
    expect(IMPORT_MESSAGES.weekMismatch(p.week, p.weekMismatch!)).toBe(
      "All 80 meeting dates fall in week 3 (13–19 Jul), not week 2 (6–12 Jul). Import as week 3?",
    );
  });

  it("has no mismatch for the right week", async () => {
    const p = await preview("3");
    expect(p.weekMismatch).toBeNull();
    expect(p.warnings).toEqual([]);
  });
});
