import type { ConfirmFlagImportResponse, ImportBatch, ImportCommit, ProcessFlagsResponse, WeeklyDataItem } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { keepRows, postConfirmFlags, postProcessFlags } from "../../../test/flag-upload.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Expected, week3Files } from "../../../test/import-upload.js";
import { loginAs, type LoggedIn, useTestApp } from "../../../test/test-app.js";
import { week3File } from "../../../test/report-files.js";
import { manualClock } from "../../lib/clock.js";

// The sample week through the flag uploader: the fixture's flags exactly, every matching path,
// the import (kept codes, stored Benefit Assignment IDs), idempotence, tampering and undo.

const clock = manualClock(new Date("2026-07-20T09:00:00Z"));
const t = useTestApp({ clock });
const expected = week3Expected();
const crm = week3File("crm-attendance.csv");
let superAdmin: LoggedIn;
let cohortId = 0;

beforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  superAdmin = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
  const res = await postImport(t, "commit", superAdmin.headers, importForm(WEEK3_NEW_COHORT, week3Files()));
  expect(res.statusCode, res.body).toBe(200);
  cohortId = res.json<ImportCommit>().cohortId;
});

function processForm(fields: Record<string, string | number> = { cohortId, currentWeek: 3 }) {
  const { progressReport, reflectionReport } = week3Files();
  return importForm(fields, { progressReport, reflectionReport, attendanceReport: crm });
}
const processFlags = (form = processForm(), headers = superAdmin.headers) => postProcessFlags(t, headers, form);
const confirm = (body: unknown, headers = superAdmin.headers) => postConfirmFlags(t, headers, body);
const keep = (run: ProcessFlagsResponse, rows = run.data) => keepRows(run, cohortId, 3, rows);
const studentIdOf = async (email: string) => (await t.db.selectFrom("students").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

describe("the sample week through the flag uploader", () => {
  let first: ProcessFlagsResponse;

  it("calculates exactly the fixture's flags, matching by e-mail the first time", async () => {
    const res = await processFlags();
    expect(res.statusCode, res.body).toBe(200);
    first = res.json<ProcessFlagsResponse>();
    expect(first).toMatchObject({ status: "success", validationErrors: [], unmatched: [] });
    expect(first.data).toHaveLength(40);
    for (const s of expected.students) {
      const row = first.data.find((r) => r.name === s.name);
      expect(row?.flags.map((f) => f.code), s.name).toEqual(s.flagUploaderFlags);
      expect(row?.calculated_flags, s.name).toEqual(row?.flags.map((f) => f.text));
      expect(row?.matchedBy).toBe("email");
      expect(row?.benefit_assignment_id).toBe(s.benefitAssignmentId);
    }
    const dmitri = first.data.find((r) => r.name === "Dmitri Silva");
    expect(dmitri?.calculated_flags.join("; ")).toBe(
      "Behind on progress (5% vs 50% expected); Low hours (1.5 of 20 expected); Low wellbeing (1/5); Absent from 1 session(s)",
    );
  });

  it("writes nothing to students' weeks while processing", async () => {
    const dmitri = await studentIdOf("dmitri.silva0@students.example.org");
    const week = await t.db.selectFrom("weekly_data").select("flags").where("student_id", "=", dmitri).executeTakeFirstOrThrow();
    expect(week.flags.map((f) => f.code)).toEqual(["BEHIND_PROGRESS", "LOW_HOURS", "LOW_WELLBEING"]);
    const stored = await t.db.selectFrom("students").select("benefit_assignment_id").where("id", "=", dmitri).executeTakeFirstOrThrow();
    expect(stored.benefit_assignment_id).toBeNull();
  });

  it("refuses flags, rows and ids the run did not calculate", async () => {
    const body = keep(first);
    const tampered = structuredClone(body);
    tampered.verificationData[0]!.calculated_flags = [];
    expect((await confirm(tampered)).json().error).toMatch(/flags differ from the ones calculated/);
    const stranger = structuredClone(body);
    stranger.verificationData[0]!.studentId = 999_999;
    expect((await confirm(stranger)).statusCode).toBe(400);
    const otherId = structuredClone(body);
    otherId.verificationData[0]!.benefit_assignment_id = "BA-X";
    expect((await confirm(otherId)).json().error).toMatch(/Benefit Assignment ID differs/);
    expect((await confirm({ ...body, runId: "not-a-run" })).statusCode).toBe(404);
    expect((await confirm({ ...body, currentWeek: 2 })).statusCode).toBe(409);
  });

  it("imports the kept rows: uploader codes in, the weekly import's MISSED_MEETING kept, Benefit Assignment IDs stored", async () => {
    const kept = first.data.filter((r) => r.name !== "Kwame Patel");
    const res = await confirm(keep(first, kept));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ConfirmFlagImportResponse>()).toMatchObject({
      status: "success",
      message: "Flags imported successfully!",
      summary: { studentsImported: 39, weeklyDataCreated: 0, benefitAssignmentIdsStored: 39, benefitAssignmentIdsHeldElsewhere: 0 },
    });
    const marcus = await studentIdOf("marcus.rodriguez2@students.example.org");
    const weeks = await t.app.inject({ method: "GET", url: `/api/weekly-data/${marcus}`, headers: superAdmin.headers });
    expect(weeks.json<{ data: WeeklyDataItem[] }>().data[0]?.flags.map((f) => f.text)).toEqual([
      "Attendance not recorded for 1 session(s)",
      "Missed advisor meeting",
    ]);
    const kwame = await t.db.selectFrom("students").select("benefit_assignment_id").where("id", "=", await studentIdOf("kwame.patel1@students.example.org")).executeTakeFirstOrThrow();
    expect(kwame.benefit_assignment_id).toBeNull();
  });

  it("changes nothing when the same run is imported again, and matches by Benefit Assignment ID next time", async () => {
    const kept = first.data.filter((r) => r.name !== "Kwame Patel");
    // The page sends back whole rows; a real week is well over the 1 MB default body limit.
    const body = keep(first, kept);
    const whole = { ...body, verificationData: body.verificationData.map((r, i) => ({ ...kept[i], ...r, note: "x".repeat(40_000) })) };
    expect(JSON.stringify(whole).length).toBeGreaterThan(1024 * 1024);
    const again = await confirm(whole);
    expect(again.statusCode, again.body.slice(0, 200)).toBe(200);
    expect(again.json<ConfirmFlagImportResponse>().summary).toMatchObject({ weeklyDataCreated: 0, weeklyDataUpdated: 0, unchanged: 39, benefitAssignmentIdsStored: 0 });
    const next = (await processFlags()).json<ProcessFlagsResponse>();
    expect(next.data.find((r) => r.name === "Dmitri Silva")?.matchedBy).toBe("benefit_assignment_id");
    expect(next.data.find((r) => r.name === "Kwame Patel")?.matchedBy).toBe("email");
  });

  it("undoes a flag import like a weekly import, newest first", async () => {
    const list = (await t.app.inject({ method: "GET", url: "/api/imports", headers: superAdmin.headers })).json<{ data: ImportBatch[] }>().data;
    const [newest, second] = list;
    expect(newest).toMatchObject({ kind: "flags", canUndo: true });
    // An admin corrects one stored ID after the import: the undo leaves the correction alone.
    const marcusId = await studentIdOf("marcus.rodriguez2@students.example.org");
    const corrected = await t.app.inject({ method: "PUT", url: `/api/students/${marcusId}`, headers: superAdmin.headers, payload: { benefit_assignment_id: "BA-CORRECTED" } });
    expect(corrected.statusCode, corrected.body).toBe(200);
    for (const batch of [newest, second]) {
      const res = await t.app.inject({ method: "POST", url: `/api/imports/${batch?.id}/undo`, headers: superAdmin.headers });
      expect(res.statusCode, res.body).toBe(200);
    }
    const marcus = await studentIdOf("marcus.rodriguez2@students.example.org");
    const week = await t.db.selectFrom("weekly_data").select("flags").where("student_id", "=", marcus).executeTakeFirstOrThrow();
    expect(week.flags.map((f) => f.code)).toEqual(["MISSED_MEETING"]);
    const dmitri = await t.db.selectFrom("students").select("benefit_assignment_id").where("id", "=", await studentIdOf("dmitri.silva0@students.example.org")).executeTakeFirstOrThrow();
    expect(dmitri.benefit_assignment_id).toBeNull();
    const kept = await t.db.selectFrom("students").select("benefit_assignment_id").where("id", "=", marcusId).executeTakeFirstOrThrow();
    expect(kept.benefit_assignment_id).toBe("BA-CORRECTED");
  });

  it("forgets a run after two hours", async () => {
    const run = (await processFlags()).json<ProcessFlagsResponse>();
    clock.advance(121 * 60_000);
    const fresh = await loginAs(t.app, { username: superAdmin.user.username, password: "Correct-Horse-7" });
    const res = await confirm(keep(run), fresh.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/expired/);
    superAdmin = fresh;
  });
});
