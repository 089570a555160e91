import type { ConfirmFlagImportResponse } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent } from "../../../test/factories.js";
import { flagFiles, keepRows, postConfirmFlags, postProcessFlags, processedRun } from "../../../test/flag-upload.js";
import { importForm } from "../../../test/import-upload.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Committing a flag import (the super admin's flag uploader) evaluates the cohort's alerts: a
// student given K flags in the week (3 by default) gets a `flags` alert raised by that batch;
// one with fewer gets none. Week 3 of 6 with 120 hours: 50 % progress expected, 20 hours a week.

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });
let cohortId = 0;
const ids = { flagged: 0, fine: 0 };

const CRM = `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
Many Flags,BA-1,Absent,many@example.org,Workshop,2026-07-14
Many Flags,BA-1,Enrolled,many@example.org,Site Visit,2026-07-16
Few Flags,BA-2,Completed,few@example.org,Workshop,2026-07-14
`;
const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Many Flags,many@example.org,,10,2,0
Few Flags,few@example.org,,60,0,0
`;
const REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
Many Flags,many@example.org,2,1,Hard
Few Flags,few@example.org,20,4,Good
`;

beforeAll(async () => {
  const school = await buildSchool(t.db, { name: "Flag High" });
  cohortId = (await buildCohort(t.db, { name: "Flag cohort", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  ids.flagged = (await buildStudent(t.db, { schoolId: school.id, firstName: "Many", lastName: "Flags", email: "many@example.org", cohortIds: [cohortId] })).id;
  ids.fine = (await buildStudent(t.db, { schoolId: school.id, firstName: "Few", lastName: "Flags", email: "few@example.org", cohortIds: [cohortId] })).id;
});

const flagAlerts = () =>
  t.db.selectFrom("alerts").select(["student_id", "state", "level", "raised_by_batch", "evidence"]).where("rule", "=", "flags").orderBy("student_id").execute();

describe("alerts after a flag import", () => {
  const run = processedRun(() => postProcessFlags(t, superAdmin.headers, importForm({ cohortId, currentWeek: 3 }, flagFiles({ progress: PROGRESS, reflections: REFLECTIONS, crm: CRM }))));

  it("raises a flags alert for the student given K flags in the week, raised by the flag batch, once the import is confirmed", async () => {
    expect(run.data.find((r) => r.studentId === ids.flagged)?.calculated_flags.length).toBeGreaterThanOrEqual(3);
    expect(run.data.find((r) => r.studentId === ids.fine)?.calculated_flags).toEqual([]);
    // Processing alone writes nothing, so it raises nothing.
    expect(await flagAlerts()).toEqual([]);

    const res = await postConfirmFlags(t, superAdmin.headers, keepRows(run, cohortId, 3));
    expect(res.statusCode, res.body).toBe(200);
    const { batchId } = res.json<ConfirmFlagImportResponse>();
    const alerts = await flagAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ student_id: ids.flagged, state: "open", raised_by_batch: batchId });
    expect(alerts[0]?.level).toBeGreaterThanOrEqual(3);
    expect(alerts[0]?.evidence).toMatch(/^Flagged: \d flags in week 3/);
  });
});
