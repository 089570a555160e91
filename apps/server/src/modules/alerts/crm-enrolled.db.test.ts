import { type ConfirmFlagImportResponse, DEFAULT_ALERT_SCHEDULE, type ProcessFlagsResponse } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildUser, type BuiltUser } from "../../../test/factories.js";
import { flagFiles, keepRows, postConfirmFlags, postProcessFlags } from "../../../test/flag-upload.js";
import { importForm } from "../../../test/import-upload.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { loadCohort } from "./alert-evaluation.service.js";
import { findCrmEnrolledAfterWeek, weekEndedAt } from "./crm-enrolled.repository.js";
import { missingFromReports } from "./rules/missing-from-reports.js";

// The missing-from-reports rule's CRM part reads what flag imports stored (migration 028):
// Ena's week-3 session is still "Enrolled" in the CRM export; Cal's is Completed. Week 3 of the
// cohort runs 13-19 July 2026, so an export read from 20 July on was read after it ended.

const DAY = 86_400_000;
const clock = manualClock(new Date("2026-07-16T10:00:00Z"));
const t = useTestApp({ clock });
let superAdmin: BuiltUser;
let cohortId = 0;
const ids = { ena: 0, cal: 0 };

const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
Ena Moss,ena@example.org,,60,0,0
Cal Ruiz,cal@example.org,,60,0,0
`;
const REFLECTIONS = `User Name,Email,Hours worked this week,How are you feeling (1-5)?,Reflect on your week
Ena Moss,ena@example.org,20,4,Good
Cal Ruiz,cal@example.org,20,4,Good
`;
const crm = (enaStatus: string) => `Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date
Ena Moss,BA-E,${enaStatus},ena@example.org,Workshop,2026-07-15
Cal Ruiz,BA-C,Completed,cal@example.org,Workshop,2026-07-15
`;

beforeAll(async () => {
  superAdmin = await buildUser(t.db, { role: "super_admin" });
  const school = await buildSchool(t.db, { name: "Moss High" });
  cohortId = (await buildCohort(t.db, { name: "Summer", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: 120 })).id;
  ids.ena = (await buildStudent(t.db, { schoolId: school.id, firstName: "Ena", lastName: "Moss", email: "ena@example.org", cohortIds: [cohortId] })).id;
  ids.cal = (await buildStudent(t.db, { schoolId: school.id, firstName: "Cal", lastName: "Ruiz", email: "cal@example.org", cohortIds: [cohortId] })).id;
});

/** Processes and confirms a week-3 flag import at the clock's time (signed in afresh: the clock moves by days); its batch id. */
async function flagImport(enaStatus: string): Promise<number> {
  const { headers } = await loginAs(t.app, superAdmin);
  const processed = await postProcessFlags(t, headers, importForm({ cohortId, currentWeek: 3 }, flagFiles({ progress: PROGRESS, reflections: REFLECTIONS, crm: crm(enaStatus) })));
  expect(processed.statusCode, processed.body).toBe(200);
  // The count stays with the run on the server; the page's rows are as the contract says.
  expect(processed.body).not.toContain("crmEnrolled");
  const confirmed = await postConfirmFlags(t, headers, keepRows(processed.json<ProcessFlagsResponse>(), cohortId, 3));
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return confirmed.json<ConfirmFlagImportResponse>().batchId;
}

async function undo(batchId: number): Promise<void> {
  const { headers } = await loginAs(t.app, superAdmin);
  const res = await t.app.inject({ method: "POST", url: `/api/imports/${batchId}/undo`, headers, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
}

async function enrolledAfterWeek(): Promise<number[]> {
  const loaded = await loadCohort(t.db, cohortId);
  expect(loaded?.cohort.latestWeek).toBe(3);
  return [...(await findCrmEnrolledAfterWeek(t.db, loaded!.cohort, [ids.ena, ids.cal]))];
}

describe("CRM sessions still Enrolled after the week ended", () => {
  it("counts the end of week 3 from 20 July, 00:00 UTC", () => {
    expect(weekEndedAt("2026-06-29", 3).toISOString()).toBe("2026-07-20T00:00:00.000Z");
  });

  it("are stored by each flag import, and count only when the export was read after the week ended and is the newest not undone", async () => {
    // Read mid-week: Enrolled is a session still to come.
    await flagImport("Enrolled");
    const stored = await t.db.selectFrom("crm_enrolled_sessions").select(["student_id", "week_number", "enrolled"]).orderBy("student_id").execute();
    expect(stored).toEqual([
      { student_id: ids.ena, week_number: 3, enrolled: 1 },
      { student_id: ids.cal, week_number: 3, enrolled: 0 },
    ].sort((a, b) => a.student_id - b.student_id));
    expect(await enrolledAfterWeek()).toEqual([]);

    // Read on 21 July: the session is still Enrolled after the week ended.
    clock.advance(5 * DAY);
    const late = await flagImport("Enrolled");
    expect(await enrolledAfterWeek()).toEqual([ids.ena]);
    // The evaluation after that import raised it (the rule's default asks for the CRM part).
    const raised = await t.db
      .selectFrom("alerts")
      .select("evidence")
      .where("student_id", "=", ids.ena)
      .where("rule", "=", "missing_from_reports")
      .where("condition_ended_at", "is", null)
      .execute();
    expect(raised.map((r) => r.evidence).join(" | ")).toContain('CRM session still "Enrolled" after week 3');
    const loaded = await loadCohort(t.db, cohortId);
    const verdict = missingFromReports(
      { studentId: ids.ena, meetings: [], weeks: [], inLatestWeekReports: true, crmEnrolledAfterWeek: true },
      loaded!.cohort,
      { crmEnrolled: true },
      DEFAULT_ALERT_SCHEDULE,
    );
    expect(verdict?.evidence).toMatch(/^CRM session still "Enrolled" after week 3/);

    // A newer export records the session: it no longer counts; undoing that import brings it back.
    clock.advance(DAY);
    const recorded = await flagImport("Completed");
    expect(await enrolledAfterWeek()).toEqual([]);
    await undo(recorded);
    expect(await enrolledAfterWeek()).toEqual([ids.ena]);
    // Undoing the late import leaves the mid-week one, read before the week ended.
    await undo(late);
    expect(await enrolledAfterWeek()).toEqual([]);
  });
});
