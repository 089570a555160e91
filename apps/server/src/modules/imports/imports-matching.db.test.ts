import type { ImportCommit, ImportPreview } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildTeam, buildWeeklyData } from "../../../test/factories.js";
import { importForm, importTablesSnapshot, postImport } from "../../../test/import-upload.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Matching rules of report-formats.md against students the database already has, the
// attendance and weekly actions, flags of the other source kept, and an exact undo.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });

const MEETING = `First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status,Advisor Notes
Ana,Pérez,ANA.PEREZ@Example.org,Lincoln High,Team Red,2026-03-10,Mentor,Late,
Ana,Pérez,ana.perez@example.org,Lincoln High,Team Red,2026-03-12,Advisor,Present,Keep going
Jose,Nunez,,Lincoln High,,2026-03-10,Mentor Meeting,P,
Jose,Nunez,,Lincoln High,,2026-03-20,Advisor Check-in,Tardy,
Sam,Lee,,Lincoln High,,2026-03-10,Mentor,Present,
Kim,Park,kim.park@example.org,Lincoln High,Team Red,2026-03-10,Mentor,Excused,
New,Student,new.student@example.org,oak academy,Team Blue,2026-03-11,Mentor,A,
Ghost,Writer,ghost@example.org,Nowhere High,Team Grey,2026-03-11,Mentor,Present,
Bad,Status,bad@example.org,Lincoln High,,2026-03-11,Mentor,Maybe,
`;
const PROGRESS = `Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates
"Pérez, Ana",,Team Red,0.45,2,0
"Nunez, Jose",,,80%,0,0
Unknown Person,unknown@example.org,,50,0,0
`;
const REFLECTIONS = `User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week
Ana Pérez,ana.perez@example.org,4,2,A short week
José Núñez,,12,4,Good
`;

const files = {
  attendanceReport: { name: "meetings.csv", bytes: MEETING },
  progressReport: { name: "progress.csv", bytes: PROGRESS },
  reflectionReport: { name: "reflections.csv", bytes: REFLECTIONS },
};

let ids: { cohort: number; ana: number; jose: number; kim: number; otherCohort: number; lincoln: number; red: number };

beforeAll(async () => {
  const lincoln = await buildSchool(t.db, { name: "Lincoln High" });
  await buildSchool(t.db, { name: "Oak Academy" });
  const cohort = await buildCohort(t.db, { name: "Spring", startDate: "2026-03-02", endDate: "2026-04-13", totalExpectedHours: 60 });
  const other = await buildCohort(t.db, { name: "Winter", startDate: "2026-01-05", endDate: "2026-02-13" });
  const red = await buildTeam(t.db, { schoolId: lincoln.id, cohortId: cohort.id, name: "Team Red" });
  const ana = await buildStudent(t.db, { schoolId: lincoln.id, firstName: "Ana", lastName: "Pérez", email: "ana.perez@example.org", cohortIds: [cohort.id], teams: [red.id] });
  const jose = await buildStudent(t.db, { schoolId: lincoln.id, firstName: "José", lastName: "Núñez", email: null, cohortIds: [cohort.id] });
  for (let i = 0; i < 2; i++) await buildStudent(t.db, { schoolId: lincoln.id, firstName: "Sam", lastName: "Lee", email: null, cohortIds: [cohort.id] });
  const kim = await buildStudent(t.db, { schoolId: lincoln.id, firstName: "Kim", lastName: "Park", email: "kim.park@example.org", cohortIds: [other.id] });
  await buildAttendance(t.db, [
    { studentId: ana.id, cohortId: cohort.id, schoolId: lincoln.id, teamId: red.id, weekNumber: 2, date: "2026-03-10", meetingType: "mentor", status: "present" },
    { studentId: ana.id, cohortId: cohort.id, schoolId: lincoln.id, teamId: red.id, weekNumber: 2, date: "2026-03-12", meetingType: "advisor", status: "present" },
  ]);
  await buildWeeklyData(t.db, [
    { studentId: ana.id, cohortId: cohort.id, weekNumber: 2, reflection: "old", flags: [{ code: "ABSENT_SESSIONS", text: "Absent from 1 session(s)" }, { code: "LOW_HOURS", text: "Low hours (1 of 10 expected)" }] },
  ]);
  ids = { cohort: cohort.id, ana: ana.id, jose: jose.id, kim: kim.id, otherCohort: other.id, lincoln: lincoln.id, red: red.id };
});


const detail = (p: ImportPreview, name: string) => p.processedStudentDetails.find((d) => d.studentFullName === name);

describe("a cohort member found both as a member and by e-mail", () => {
  it("counts once, so a row naming them without e-mail is theirs, not ambiguous", async () => {
    const meeting = `First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status
Ana,Pérez,ana.perez@example.org,Lincoln High,Team Red,2026-03-10,Mentor,Present
"Ana",Perez,,Lincoln High,Team Red,2026-03-12,Advisor,Present
`;
    const res = await postImport(t, "preview", admin.headers, importForm({ cohortId: ids.cohort, weekNumber: 2 }, { ...files, attendanceReport: { name: "meetings.csv", bytes: meeting } }));
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<ImportPreview>();
    expect(preview.errorsEncountered.filter((e) => e.type === "ambiguous_student")).toEqual([]);
    expect(detail(preview, "Ana Pérez")).toMatchObject({ studentId: ids.ana, isNewStudent: false });
    expect(detail(preview, "Ana Pérez")?.attendance.map((a) => a.meetingType)).toEqual(["mentor", "advisor"]);
  });
});

describe("matching rows to students", () => {
  let preview: ImportPreview;
  beforeAll(async () => {
    const res = await postImport(t, "preview", admin.headers, importForm({ cohortId: ids.cohort, weekNumber: 2 }, files));
    expect(res.statusCode, res.body).toBe(200);
    preview = res.json<ImportPreview>();
  });

  it("matches by e-mail case-insensitively, and by name with accents and \"Last, First\" folded", () => {
    expect(detail(preview, "Ana Pérez")).toMatchObject({ studentId: ids.ana, isNewStudent: false });
    expect(detail(preview, "José Núñez")).toMatchObject({ studentId: ids.jose, isNewStudent: false });
    expect(detail(preview, "José Núñez")?.weeklyData.total_hours_reported).toBe(12);
  });

  it("matches a student of another cohort by e-mail (not new) and creates an unknown student at a known school", () => {
    expect(detail(preview, "Kim Park")).toMatchObject({ studentId: ids.kim, isNewStudent: false });
    expect(detail(preview, "New Student")).toMatchObject({ studentId: null, isNewStudent: true });
    expect(preview.summary).toMatchObject({ totalStudentsInFiles: 4, newStudentsCreatedCount: 1, studentsProcessedForWeeklyData: 4 });
  });

  it("reports an ambiguous name, an unknown school and a bad value as row errors naming file, row, column and value", () => {
    const byType = (type: string) => preview.errorsEncountered.filter((e) => e.type === type);
    expect(byType("ambiguous_student")).toEqual([
      expect.objectContaining({ file: "meetings.csv", row: 6, column: "Name", value: "Sam Lee", studentId: null }),
    ]);
    expect(byType("unknown_school")).toEqual([
      expect.objectContaining({ file: "meetings.csv", row: 9, column: "School", value: "Nowhere High" }),
    ]);
    expect(byType("parse")).toEqual([expect.objectContaining({ file: "meetings.csv", row: 10, column: "Status", value: "Maybe" })]);
    // Each error names the row's student and says what happens to the row (issue 29).
    expect(byType("parse")[0]?.error).toMatch(/^meetings\.csv row 10 · Bad Status · Status "Maybe" is not .* — this meeting is skipped$/);
    expect(byType("parse")[0]?.studentName).toBe("Bad Status");
    expect(byType("unknown_school")[0]?.error).toBe(
      'meetings.csv row 9 · Ghost Writer · School "Nowhere High" is not a school in Tally; add the school in Settings or correct the name — this row is skipped',
    );
    expect(byType("ambiguous_student")[0]?.error).toMatch(/^meetings\.csv row 6 · Sam Lee · Name "Sam Lee" matches 2 students of the cohort; .* — this row is skipped$/);
    expect(preview.processedStudentDetails.map((d) => d.studentFullName)).not.toContain("Sam Lee");
  });

  it("warns of a date outside the week and of a platform row nobody in the meeting report matches", () => {
    expect(preview.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "date_outside_week", file: "meetings.csv", row: 5 }),
        expect.objectContaining({ type: "unmatched", file: "progress.csv", row: 4 }),
      ]),
    );
    expect(preview.warnings.find((w) => w.type === "date_outside_week")?.message).toContain("2026-03-09 to 2026-03-15");
  });

  it("gives each attendance row its action: created, updated (another status) or none", () => {
    expect(detail(preview, "Ana Pérez")?.attendance).toEqual([
      { date: "2026-03-10", status: "late", excused: false, meetingType: "mentor", action: "updated" },
      { date: "2026-03-12", status: "present", excused: false, meetingType: "advisor", action: "none" },
    ]);
    expect(detail(preview, "Kim Park")?.attendance).toEqual([{ date: "2026-03-10", status: "absent", excused: true, meetingType: "mentor", action: "created" }]);
    expect(detail(preview, "José Núñez")?.attendance.map((a) => [a.status, a.meetingType])).toEqual([["present", "mentor"], ["late", "advisor"]]);
    expect(preview.summary).toMatchObject({ attendanceRecordsCreated: 4, attendanceRecordsUpdated: 1, weeklyDataCreated: 3, weeklyDataUpdated: 1 });
  });

  it("replaces only the import's own flag codes and keeps the flag uploader's", () => {
    // Ana: 45 % of an expected 33.3 % is not behind; 2 past due; 4 of 10 hours; feeling 2.
    expect(detail(preview, "Ana Pérez")?.weeklyData).toMatchObject({
      action: "updated",
      reflection: "A short week",
      flags: [
        { code: "PAST_DUE", text: "2 past-due assessment(s)" },
        { code: "LOW_HOURS", text: "Low hours (4 of 10 expected)" },
        { code: "LOW_WELLBEING", text: "Low wellbeing (2/5)" },
        { code: "ABSENT_SESSIONS", text: "Absent from 1 session(s)" },
      ],
    });
    expect(detail(preview, "Kim Park")?.weeklyData.flags.map((f) => f.text)).toEqual([
      "No learning-platform record",
      "No reflection submitted",
      "Missed mentor meeting",
    ]);
  });
});

describe("commit and undo against existing data", () => {
  it("writes the matched students' rows, joins and creates what is new, and undo restores every value", async () => {
    const before = await importTablesSnapshot(t.db);
    const res = await postImport(t, "commit", admin.headers, importForm({ cohortId: ids.cohort, weekNumber: 2 }, files));
    expect(res.statusCode, res.body).toBe(200);
    const commit = res.json<ImportCommit>();

    const ana = await t.db.selectFrom("attendance_records").select(["status"]).where("student_id", "=", ids.ana).where("date", "=", "2026-03-10").executeTakeFirstOrThrow();
    expect(ana.status).toBe("late");
    const kimCohorts = await t.db.selectFrom("student_cohorts").select("cohort_id").where("student_id", "=", ids.kim).orderBy("cohort_id").execute();
    expect(kimCohorts.map((r) => r.cohort_id)).toEqual([ids.otherCohort, ids.cohort].sort((a, b) => a - b));
    const blue = await t.db.selectFrom("teams").selectAll().where("name", "=", "Team Blue").executeTakeFirstOrThrow();
    expect(blue.cohort_id).toBe(ids.cohort);
    const created = await t.db.selectFrom("students").selectAll().where("email", "=", "new.student@example.org").executeTakeFirstOrThrow();
    expect(created).toMatchObject({ first_name: "New", last_name: "Student" });
    const kimTeam = await t.db.selectFrom("student_teams").select("team_id").where("student_id", "=", ids.kim).execute();
    expect(kimTeam.map((r) => r.team_id)).toEqual([ids.red]);
    await expectRollupsMatchRecount(t.db);

    const undo = await t.app.inject({ method: "POST", url: `/api/imports/${commit.batchId}/undo`, headers: admin.headers });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().data).toMatchObject({ attendanceRecordsRemoved: 4, attendanceRecordsRestored: 1, weeklyDataRemoved: 3, weeklyDataRestored: 1, studentsRemoved: 1, cohortRemoved: false });
    expect(await importTablesSnapshot(t.db)).toEqual(before);
    await expectRollupsMatchRecount(t.db);
  });
});
