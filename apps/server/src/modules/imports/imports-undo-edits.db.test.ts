import { IMPORT_MESSAGES, type ImportCommit, type ImportsResponse, type ImportUndoResponse } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { filledBeforeAll } from "../../../test/filled-before-all.js";
import { importForm, importTablesSnapshot, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";

// Undo of an import never silently drops a person's later edit: a student the import created
// and someone edited since makes the undo answer 409 with who changed what and when; the
// coordinator may then undo keeping those students as they are now.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
filledBeforeAll(async () => {
  for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
  return {};
});

const undo = (batchId: number, payload?: object) =>
  t.app.inject({ method: "POST", url: `/api/imports/${batchId}/undo`, headers: admin.headers, ...(payload ? { payload } : {}) });
const studentNamed = (first: string, last: string) =>
  t.db.selectFrom("students").selectAll().where("first_name", "=", first).where("last_name", "=", last).executeTakeFirstOrThrow();

describe("undo of an import whose students were edited since", () => {
  it("answers 409 with the students edited since and changes nothing; asked to keep them, undoes the rest", async () => {
    const commit = await postImport(t, "commit", admin.headers, importForm(WEEK3_NEW_COHORT, week3Files()));
    expect(commit.statusCode, commit.body.slice(0, 300)).toBe(200);
    const { batchId, cohortId } = commit.json<ImportCommit>();

    const dmitri = await studentNamed("Dmitri", "Silva");
    const kwame = await studentNamed("Kwame", "Patel");
    const schoolUser = await buildUser(t.db, { role: "school_user", schoolId: dmitri.school_id ?? undefined });
    const schoolSession = await loginAs(t.app, schoolUser);
    const renamed = await t.app.inject({ method: "PUT", url: `/api/students/${dmitri.id}`, headers: schoolSession.headers, payload: { first_name: "Dimitri" } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const moved = await t.app.inject({ method: "PUT", url: `/api/students/${kwame.id}`, headers: admin.headers, payload: { last_name: "Patel-Obi", email: "kwame@example.org" } });
    expect(moved.statusCode, moved.body).toBe(200);

    const before = await importTablesSnapshot(t.db);
    const refused = await undo(batchId);
    expect(refused.statusCode, refused.body).toBe(409);
    const body = refused.json();
    expect(body).toEqual({
      error: IMPORT_MESSAGES.studentsEditedSince(2),
      code: "STUDENTS_EDITED",
      editedStudentsCount: 2,
      editedStudents: [
        { id: dmitri.id, name: "Dimitri Silva", changes: [{ at: expect.any(String), by: schoolUser.username, fields: ["first_name"] }] },
        { id: kwame.id, name: "Kwame Patel-Obi", changes: [{ at: expect.any(String), by: admin.user.username, fields: ["last_name", "email"] }] },
      ].sort((a, b) => a.id - b.id),
    });
    expect(Number.isNaN(Date.parse(body.editedStudents[0].changes[0].at))).toBe(false);
    expect(await importTablesSnapshot(t.db)).toEqual(before);
    const listed = (await t.app.inject({ method: "GET", url: "/api/imports", headers: admin.headers })).json<ImportsResponse>();
    expect(listed.data.find((b) => b.id === batchId)).toMatchObject({ undoneAt: null, canUndo: true });

    const unclear = await undo(batchId, { keepEditedStudents: "yes" });
    expect(unclear.statusCode).toBe(400);
    expect(unclear.json().error).toBe("keepEditedStudents must be true or false");
    expect(await importTablesSnapshot(t.db)).toEqual(before);

    const kept = await undo(batchId, { keepEditedStudents: true });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<ImportUndoResponse>().message).toBe(
      "Undid the week 3 import of Summer Week 3: removed 80 attendance records, 40 weekly records and 38 students and kept 2 edited students.",
    );
    expect(kept.json<ImportUndoResponse>().data).toMatchObject({
      attendanceRecordsRemoved: 80,
      weeklyDataRemoved: 40,
      studentsRemoved: 38,
      studentsKept: 2,
      // The kept students are still in it.
      cohortRemoved: false,
    });
    // Kept as they are now: the edits, and their place in the cohort.
    expect(await studentNamed("Dimitri", "Silva")).toMatchObject({ id: dmitri.id });
    expect(await studentNamed("Kwame", "Patel-Obi")).toMatchObject({ id: kwame.id, email: "kwame@example.org" });
    const memberships = await t.db.selectFrom("student_cohorts").select("student_id").where("cohort_id", "=", cohortId).orderBy("student_id").execute();
    expect(memberships.map((m) => m.student_id)).toEqual([dmitri.id, kwame.id].sort((a, b) => a - b));
    const rows = await t.db.selectFrom("attendance_records").select("id").where("cohort_id", "=", cohortId).execute();
    expect(rows).toEqual([]);
    await expectRollupsMatchRecount(t.db);
  });
});
