import type { ProcessFlagsError, ProcessFlagsResponse } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent } from "../../../test/factories.js";
import { flagFiles, keepRows, postConfirmFlags, postProcessFlags, processedRun } from "../../../test/flag-upload.js";
import { importForm } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Every flag rule at its boundary, every matching path and every refusal of process-flags.
// Week 3 of 6 with 120 hours: progress is expected at 50 %, behind below 30 %; 20 hours a
// week are expected, low below 10.

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });
const admin = useSignedIn(t, { role: "admin" });
let cohortId = 0;
const ids = { holder: 0, atThreshold: 0 };

beforeAll(async () => {
  const school = await buildSchool(t.db, { name: "Boundary High" });
  cohortId = (await buildCohort(t.db, { name: "Boundaries", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  const add = (first: string, last: string, email: string | null, benefit: string | null = null) =>
    buildStudent(t.db, { schoolId: school.id, firstName: first, lastName: last, email, cohortIds: [cohortId] }).then(async (s) => {
      if (benefit) await t.db.updateTable("students").set({ benefit_assignment_id: benefit }).where("id", "=", s.id).execute();
      return s;
    });
  ids.atThreshold = (await add("At", "Threshold", "at@example.org")).id;
  await add("Below", "Threshold", "below@example.org");
  await add("No", "Platform", "noplatform@example.org");
  await add("Name", "Only", null);
  await add("Twin", "Same", null);
  await add("Twin", "Same", null);
  await add("Known", "Benefit", "known@example.org", "BA-KNOWN");
  await buildStudent(t.db, { schoolId: school.id, firstName: "Other", lastName: "Cohort", email: "stranger@example.org" });
  const holder = await buildStudent(t.db, { schoolId: school.id, firstName: "Id", lastName: "Holder", email: "holder@example.org" });
  await t.db.updateTable("students").set({ benefit_assignment_id: "BA-1" }).where("id", "=", holder.id).execute();
  ids.holder = holder.id;
});

const CRM = `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
At Threshold,BA-1,Completed,at@example.org,Workshop,2026-07-14
At Threshold,BA-1,Excused,at@example.org,Site Visit,2026-07-16
Below Threshold,BA-2,Absent,below@example.org,Workshop,2026-07-14
Below Threshold,BA-2,Enrolled,below@example.org,Site Visit,2026-07-16
No Platform,BA-3,Completed,noplatform@example.org,Workshop,2026-07-14
"Only, Name",BA-4,Completed,,Workshop,2026-07-14
Twin Same,BA-5,Completed,,Workshop,2026-07-14
Stranger Person,BA-6,Completed,stranger@example.org,Workshop,2026-07-14
Someone Renamed,BA-KNOWN,Excused,,Workshop,2026-07-14
`;
const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
At Threshold,at@example.org,,30,0,0
Below Threshold,below@example.org,,29.5%,1,0
Name Only,,,80,0,0
Known Benefit,known@example.org,,90,0,0
Ghost Person,ghost@example.org,,10,0,0
`;
const REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
At Threshold,at@example.org,10,3,Fine
Below Threshold,below@example.org,9.5,2,Hard
Name Only,,20,5,Good
Known Benefit,known@example.org,20,4,Good
`;

const files = (overrides: Record<string, { name: string; bytes: string }> = {}) =>
  flagFiles({ progress: PROGRESS, reflections: REFLECTIONS, crm: CRM }, overrides);
const processFlags = (f = files(), fields: Record<string, string | number> = { cohortId, currentWeek: 3 }, headers = superAdmin.headers) =>
  postProcessFlags(t, headers, importForm(fields, f));

describe("flag rules at their boundaries", () => {
  const run = processedRun(() => processFlags());
  const flagsOf = (name: string) => run.data.find((r) => r.name === name)?.calculated_flags;

  it("raises nothing exactly at the limits, and excused sessions never flag", () => {
    expect(flagsOf("At Threshold")).toEqual([]);
  });

  it("raises every platform and CRM flag just past the limits, with the texts of report-formats.md", () => {
    expect(flagsOf("Below Threshold")).toEqual([
      "Behind on progress (29.5% vs 50% expected)",
      "1 past-due assessment(s)",
      "Low hours (9.5 of 20 expected)",
      "Low wellbeing (2/5)",
      "Absent from 1 session(s)",
      "Attendance not recorded for 1 session(s)",
    ]);
  });

  it("flags a CRM student missing from both platform reports", () => {
    expect(flagsOf("No Platform")).toEqual(["No learning-platform record", "No reflection submitted"]);
  });
});

describe("matching rule 4", () => {
  const run = processedRun(() => processFlags());
  const row = (name: string) => run.data.find((r) => r.name === name);

  it("matches by Benefit Assignment ID first, then e-mail, then name (\"Last, First\" too)", () => {
    expect(row("Known Benefit")).toMatchObject({ matchedBy: "benefit_assignment_id", benefit_assignment_id: "BA-KNOWN", calculated_flags: [] });
    expect(row("At Threshold")?.matchedBy).toBe("email");
    expect(row("Name Only")).toMatchObject({ matchedBy: "name", calculated_flags: [] });
  });

  it("lists what matched no student, with the reason, instead of dropping it", () => {
    expect(run.unmatched).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "crm.csv", name: "Twin Same", reason: expect.stringMatching(/matches 2 students of this cohort/) }),
        expect.objectContaining({ file: "crm.csv", name: "Stranger Person", reason: "in the CRM report but not in this cohort" }),
        expect.objectContaining({ file: "progress.csv", name: "Ghost Person", reason: "in the progress report but not in the CRM report" }),
      ]),
    );
    expect(run.data.map((r) => r.name)).not.toContain("Twin Same");
    expect(run.data).toHaveLength(5);
  });
});

async function validation(res: Awaited<ReturnType<typeof processFlags>>): Promise<string[]> {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json<ProcessFlagsError>();
  expect(body).toMatchObject({ status: "error", data: [] });
  return body.validationErrors;
}

describe("confirming the boundary run", () => {
  it("stores Benefit Assignment IDs at the first match, and counts those another student holds", async () => {
    const run = (await processFlags()).json<ProcessFlagsResponse>();
    const res = await postConfirmFlags(t, superAdmin.headers, keepRows(run, cohortId, 3));
    expect(res.statusCode, res.body).toBe(200);
    // BA-1 (At Threshold) belongs to a student outside the cohort; BA-KNOWN is already stored.
    expect(res.json().summary).toMatchObject({ studentsImported: 5, weeklyDataCreated: 5, benefitAssignmentIdsStored: 3, benefitAssignmentIdsHeldElsewhere: 1 });
    // The conflict names both students and the ID, before the import (to check) and after it (what was left out).
    const conflict = { benefitAssignmentId: "BA-1", student: { id: ids.atThreshold, name: "At Threshold" }, heldBy: { id: ids.holder, name: "Id Holder" } };
    expect(run.benefitIdConflicts).toEqual([conflict]);
    expect(res.json().benefitIdConflicts).toEqual([conflict]);
    // The ID stays with its holder.
    const holder = await t.db.selectFrom("students").select("benefit_assignment_id").where("id", "=", ids.holder).executeTakeFirstOrThrow();
    expect(holder.benefit_assignment_id).toBe("BA-1");
  });
});

describe("refusals of process-flags", () => {
  it("refuses anyone but a super admin", async () => {
    const res = await processFlags(files(), { cohortId, currentWeek: 3 }, admin.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("Only a super admin can use the Flag Uploader");
  });

  it("refuses no upload for a CRM row without Benefit Assignment ID or with an unknown status: names file, row and column beside the data", async () => {
    const crm = `${CRM}Late Comer,,Completed,late@example.org,Workshop,2026-07-14\nOdd Status,BA-9,Cancelled,odd@example.org,Workshop,2026-07-14\n`;
    const res = await processFlags(files({ attendanceReport: { name: "crm.csv", bytes: crm } }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ProcessFlagsResponse>();
    expect(body.validationErrors).toEqual([expect.stringMatching(/^crm\.csv row 11, Benefit Assignment ID "": /), expect.stringMatching(/^crm\.csv row 12, Disbursement Status "Cancelled": /)]);
    expect(body.data).toHaveLength(5);
  });

  it("names the file and the missing column", async () => {
    const progress = "Name,Email,Progress,Assessments Without Due Dates\nAt Threshold,at@example.org,30,0\n";
    const errors = await validation(await processFlags(files({ progressReport: { name: "progress.csv", bytes: progress } })));
    expect(errors.join()).toMatch(/progress\.csv.*Past Due Assessments/);
  });

  it("refuses a file that is not CSV, a missing file, a week outside the cohort, an unknown cohort", async () => {
    expect(await validation(await processFlags(files({ progressReport: { name: "progress.pdf", bytes: "%PDF-1.4" } })))).toEqual([
      expect.stringMatching(/Invalid file type\. Please upload a CSV file\./),
    ]);
    const { attendanceReport: _crm, ...two } = files();
    expect((await validation(await processFlags(two as ReturnType<typeof files>))).join()).toMatch(/Please upload all three required files/);
    expect((await validation(await processFlags(files(), { cohortId, currentWeek: 7 }))).join()).toMatch(/Week 7 is outside cohort "Boundaries"/);
    expect((await processFlags(files(), { cohortId: 999_999, currentWeek: 3 })).statusCode).toBe(404);
  });

  it("keeps nothing of a refused upload", async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from flag_runs`.execute(t.db)).rows[0]?.n;
    await processFlags(files({ attendanceReport: { name: "crm.csv", bytes: CRM.replace("Disbursement Status", "State") } }));
    const after = (await sql<{ n: number }>`select count(*)::int as n from flag_runs`.execute(t.db)).rows[0]?.n;
    expect(after).toBe(before);
  });
});
