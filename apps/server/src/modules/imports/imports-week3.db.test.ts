import { IMPORT_MESSAGES, type ImportBatch, type ImportCommit, type ImportPreview, type ImportUndoResponse } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool } from "../../../test/factories.js";
import { importForm, importTablesSnapshot, postImport, WEEK3_NEW_COHORT, week3Expected, week3Files } from "../../../test/import-upload.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { filledBeforeAll } from "../../../test/filled-before-all.js";

// The sample week of ../shared/fixtures/reports/week3 imported as a new cohort: the preview,
// the commit, a second commit of the same files, and undo back to the state before.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
const expected = week3Expected();
filledBeforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  return {};
});


const form = (fields: Record<string, string | number> = WEEK3_NEW_COHORT) => importForm(fields, week3Files());

/** The flags the weekly import decides for a fixture student (the flag uploader's, minus CRM codes, plus missed meetings). */
function importFlags(s: (typeof expected.students)[number]): string[] {
  const codes = s.flagUploaderFlags.filter((c) => c !== "ABSENT_SESSIONS" && c !== "UNRECORDED_SESSIONS");
  if (s.mentor === "absent") codes.push("MISSED_MEETING");
  if (s.advisor === "absent") codes.push("MISSED_MEETING");
  return codes;
}

describe("weekly import of the sample week", () => {
  let batchIds: number[] = [];
  let cohortId = 0;
  let initial: Record<string, string[]> = {};

  it("previews 40 new students and 80 attendance rows, and writes nothing", async () => {
    const before = await importTablesSnapshot(t.db);
    initial = before;
    const res = await postImport(t, "preview", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<ImportPreview>();
    expect(preview.summary).toEqual({
      totalStudentsInFiles: 40,
      newStudentsCreatedCount: 40,
      attendanceRecordsCreated: 80,
      attendanceRecordsUpdated: 0,
      weeklyDataCreated: 40,
      weeklyDataUpdated: 0,
      studentsProcessedForWeeklyData: 40,
    });
    expect(preview.errorsEncountered).toEqual([]);
    expect(preview.warnings).toEqual([]);
    expect(preview.week).toEqual({ number: 3, start: "2026-07-13", end: "2026-07-19" });
    expect(preview.weekMismatch).toBeNull();
    expect(preview.unchanged).toBeNull();
    for (const s of expected.students) {
      const detail = preview.processedStudentDetails.find((d) => d.studentFullName === s.name);
      expect(detail, s.name).toBeDefined();
      expect(detail?.isNewStudent).toBe(true);
      expect(detail?.studentId).toBeNull();
      // A new student's school and team, as the meeting report names them.
      expect([detail?.schoolName, detail?.teamName], s.name).toEqual([s.school, s.team]);
      expect(detail?.weeklyData.action).toBe("created");
      expect(detail?.weeklyData.total_hours_reported).toBe(s.hours);
      expect(detail?.weeklyData.flags.map((f) => f.code), s.name).toEqual(importFlags(s));
      expect(detail?.attendance.map((a) => [a.meetingType, a.status, a.action])).toEqual([
        ["mentor", s.mentor, "created"],
        ["advisor", s.advisor, "created"],
      ]);
    }
    expect(await importTablesSnapshot(t.db)).toEqual(before);
  });

  it("gives the flag texts of report-formats.md", async () => {
    const preview = (await postImport(t, "preview", admin.headers, form())).json<ImportPreview>();
    const flagsOf = (name: string) => preview.processedStudentDetails.find((d) => d.studentFullName === name)?.weeklyData.flags.map((f) => f.text);
    // Dmitri: progress 5 of an expected 50 % in week 3 of 6, 1.5 of 20 hours, feeling 1 of 5.
    expect(flagsOf("Dmitri Silva")).toEqual(["Behind on progress (5% vs 50% expected)", "Low hours (1.5 of 20 expected)", "Low wellbeing (1/5)"]);
    expect(flagsOf("Kwame Patel")).toEqual(["3 past-due assessment(s)", "Low wellbeing (1/5)"]);
    expect(flagsOf("Marcus Rodríguez")).toEqual(["Missed advisor meeting"]);
    expect(flagsOf("Mei García")).toEqual(["No learning-platform record", "No reflection submitted", "Missed mentor meeting"]);
  });

  it("commits everything in one batch, and the dashboards count it", async () => {
    const res = await postImport(t, "commit", admin.headers, form());
    expect(res.statusCode, res.body).toBe(200);
    const commit = res.json<ImportCommit>();
    expect(commit.summary.attendanceRecordsCreated).toBe(80);
    batchIds.push(commit.batchId);
    cohortId = commit.cohortId;

    const cohort = await t.db.selectFrom("cohorts").selectAll().where("id", "=", cohortId).executeTakeFirstOrThrow();
    expect(cohort).toMatchObject({ name: "Summer Week 3", program_type: "Internship (6 week)", start_date: "2026-06-29", end_date: "2026-08-10", total_expected_hours: 120 });
    const rows = await t.db
      .selectFrom("attendance_records as a")
      .innerJoin("students as s", "s.id", "a.student_id")
      .innerJoin("schools as sc", "sc.id", "a.school_id")
      .innerJoin("teams as tm", "tm.id", "a.team_id")
      .select(["s.email", "a.meeting_type", "a.status", "a.week_number", "a.date", "sc.name as school", "tm.name as team"])
      .where("a.cohort_id", "=", cohortId)
      .execute();
    expect(rows).toHaveLength(80);
    for (const s of expected.students) {
      const mine = rows.filter((r) => r.email === s.email);
      expect(mine.map((r) => [r.meeting_type, r.status]).sort(), s.name).toEqual([["advisor", s.advisor], ["mentor", s.mentor]].sort());
      expect(new Set(mine.map((r) => `${r.school}|${r.team}|${r.week_number}`))).toEqual(new Set([`${s.school}|${s.team}|3`]));
    }
    const weekly = await t.db.selectFrom("weekly_data").selectAll().where("cohort_id", "=", cohortId).execute();
    expect(weekly).toHaveLength(40);
    expect(new Set(weekly.map((w) => w.week_start))).toEqual(new Set(["2026-07-13"]));
    const dmitri = await t.db.selectFrom("students").select("id").where("email", "=", "dmitri.silva0@students.example.org").executeTakeFirstOrThrow();
    const dmitriWeek = weekly.find((w) => w.student_id === dmitri.id);
    expect(dmitriWeek?.advisor_notes).toBe("Great progress on the project brief, keep it up.");
    expect(dmitriWeek?.reflection).toBe('Honestly it was hard to get there on time because the bus changed routes, "but" I managed.');

    const summary = await t.app.inject({ method: "GET", url: `/api/students/summary?cohortId=${cohortId}`, headers: admin.headers });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual({ studentCount: 40, schoolCount: 3, cohortCount: 1, teamCount: 6 });
    await expectRollupsMatchRecount(t.db);
  });

  it("says when the same files again would change nothing, and refuses to commit them: no empty batch", async () => {
    const before = await importTablesSnapshot(t.db);
    const previewed = (await postImport(t, "preview", admin.headers, form({ cohortId, weekNumber: 3 }))).json<ImportPreview>();
    expect(previewed.processedStudentDetails.every((d) => !d.isNewStudent && d.weeklyData.action === "none" && d.attendance.every((a) => a.action === "none"))).toBe(true);
    expect(previewed.unchanged).toEqual({ cohortName: "Summer Week 3", weekNumber: 3, lastImport: { at: expect.any(String), by: admin.user.username } });
    const text = IMPORT_MESSAGES.unchanged(previewed.unchanged!);
    expect(text).toMatch(new RegExp(`^Week 3 of Summer Week 3 was imported on \\d{1,2} [A-Z][a-z]{2} \\d{4} by ${admin.user.username}; these files change nothing\\.$`));

    const res = await postImport(t, "commit", admin.headers, form({ cohortId, weekNumber: 3 }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe(`${text} Nothing was saved.`);
    const batches = await t.db.selectFrom("import_batches").select("id").where("cohort_id", "=", cohortId).execute();
    expect(batches.map((b) => b.id)).toEqual(batchIds);
    expect(await importTablesSnapshot(t.db)).toEqual(before);
  });

  it("imports the same files as week 4: a second batch (new weekly rows, the meetings already there)", async () => {
    const res = await postImport(t, "commit", admin.headers, form({ cohortId, weekNumber: 4 }));
    expect(res.statusCode, res.body).toBe(200);
    const again = res.json<ImportCommit>();
    expect(again.unchanged).toBeNull();
    expect(again.summary).toMatchObject({ newStudentsCreatedCount: 0, attendanceRecordsCreated: 0, attendanceRecordsUpdated: 0, weeklyDataCreated: 40 });
    batchIds.push(again.batchId);
  });

  it("lists the batches, newest first, with who, files, sizes and hashes", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/imports", headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ data: ImportBatch[] }>().data;
    expect(list.map((b) => b.id)).toEqual(batchIds.toReversed());
    const [newest, first] = list;
    expect(newest).toMatchObject({ cohortId, cohortName: "Summer Week 3", weekNumber: 4, createdCohort: false, canUndo: true, undoneAt: null });
    expect(first).toMatchObject({ createdCohort: true, canUndo: false });
    expect(first?.files.map((f) => [f.field, f.name])).toEqual([
      ["attendanceReport", "meeting-attendance.csv"],
      ["progressReport", "progress.csv"],
      ["reflectionReport", "reflections.csv"],
    ]);
    expect(first?.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256) && f.size > 0)).toBe(true);
    expect(first?.userName).toBe(admin.user.username);
  });

  it("undoes only the newest batch of a cohort, then the one before, back to the state before the import", async () => {
    const [firstId, secondId] = batchIds as [number, number];
    const refused = await t.app.inject({ method: "POST", url: `/api/imports/${firstId}/undo`, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/Only the newest import/);

    const second = await t.app.inject({ method: "POST", url: `/api/imports/${secondId}/undo`, headers: admin.headers });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<ImportUndoResponse>().data).toMatchObject({ attendanceRecordsRemoved: 0, weeklyDataRemoved: 40, studentsRemoved: 0, cohortRemoved: false });
    expect(second.json<ImportUndoResponse>().message).toBe("Undid the week 4 import of Summer Week 3: removed 40 weekly records.");
    const again = await t.app.inject({ method: "POST", url: `/api/imports/${secondId}/undo`, headers: admin.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("This import has already been undone.");

    const first = await t.app.inject({ method: "POST", url: `/api/imports/${firstId}/undo`, headers: admin.headers });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<ImportUndoResponse>().data).toMatchObject({ attendanceRecordsRemoved: 80, weeklyDataRemoved: 40, studentsRemoved: 40, cohortRemoved: true });
    // The cohort is gone once undone: its name is read before.
    expect(first.json<ImportUndoResponse>().message).toBe(
      "Undid the week 3 import of Summer Week 3: removed 80 attendance records, 40 weekly records, 40 students and the cohort.",
    );
    expect(await importTablesSnapshot(t.db)).toEqual(initial);
    await expectRollupsMatchRecount(t.db);
    const list = (await t.app.inject({ method: "GET", url: "/api/imports", headers: admin.headers })).json<{ data: ImportBatch[] }>().data;
    expect(list.every((b) => b.undoneAt !== null && !b.canUndo)).toBe(true);
  });
});
