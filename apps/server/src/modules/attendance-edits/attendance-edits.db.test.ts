import type { AttendanceRecordItem, StudentAttendanceResponse } from "@tally/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { setSetting } from "../../../test/factories.js";

// PUT /api/attendance/:id: a correction of one meeting, seen and refused exactly as the student's
// attendance list and a student edit are (scope 404, editing off 403), audited on the student.

const { t, w, as } = useDashboardWorld();
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "features").execute();
});

const put = (user: WorldUserKey | null, id: number | string, payload: unknown) =>
  t.app.inject({ method: "PUT", url: `/api/attendance/${id}`, headers: user ? as[user] : {}, payload: payload as Record<string, unknown> });

/** The student's first record in the cohort (by date and meeting type). */
async function recordOf(studentId: number, cohortId: number) {
  return t.db
    .selectFrom("attendance_records")
    .selectAll()
    .where("student_id", "=", studentId)
    .where("cohort_id", "=", cohortId)
    .orderBy("date")
    .orderBy("meeting_type")
    .executeTakeFirstOrThrow();
}
const row = (id: number) => t.db.selectFrom("attendance_records").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const auditRows = (studentId: number) =>
  t.db.selectFrom("audit_log").selectAll().where("action", "=", "attendance.updated").where("entity_id", "=", String(studentId)).orderBy("id").execute();

describe("PUT /api/attendance/:id", () => {
  it("lets a school user correct a meeting of their school: stored, answered, shown in the list, audited", async () => {
    const student = w.students.aTwoCohorts.id;
    const record = await recordOf(student, w.cohorts.open.id);
    const res = await put("schoolA", record.id, { status: "absent", excused: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AttendanceRecordItem>()).toEqual({
      id: record.id,
      cohort_id: w.cohorts.open.id,
      week_number: record.week_number,
      date: String(record.date).slice(0, 10),
      meeting_type: record.meeting_type,
      status: "absent",
      excused: true,
      formatted_week: `Week ${record.week_number}`,
    });
    expect(res.json<AttendanceRecordItem>().date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await row(record.id)).toMatchObject({ status: "absent", excused: true });

    const list = await t.app.inject({ method: "GET", url: `/api/attendance/student/${student}?cohortId=${w.cohorts.open.id}`, headers: as.schoolA });
    expect(list.json<StudentAttendanceResponse>().data.find((r) => r.id === record.id)).toMatchObject({ status: "absent", excused: true });

    const [audit] = (await auditRows(student)).slice(-1);
    expect(audit).toMatchObject({ entity: "student", actor_id: w.users.schoolA.id });
    expect(audit!.before).toEqual({ status: record.status, excused: record.excused });
    expect(audit!.after).toMatchObject({ status: "absent", excused: true, attendanceId: record.id });
    const type = record.meeting_type === "mentor" ? "Mentor" : "Advisor";
    expect((audit!.after as { meeting: string }).meeting).toBe(`${type}, ${res.json<AttendanceRecordItem>().date} (Week ${record.week_number})`);

    // Back to present: excused goes with it (omitted means not excused).
    const back = await put("schoolA", record.id, { status: "present" });
    expect(back.statusCode).toBe(200);
    expect(await row(record.id)).toMatchObject({ status: "present", excused: false });
  });

  it("writes nothing when nothing changes", async () => {
    const record = await recordOf(w.students.bOpen.id, w.cohorts.open.id);
    const before = (await auditRows(w.students.bOpen.id)).length;
    const res = await put("admin", record.id, { status: record.status, excused: record.excused });
    expect(res.statusCode).toBe(200);
    expect((await row(record.id)).updated_at).toEqual(record.updated_at);
    expect((await auditRows(w.students.bOpen.id)).length).toBe(before);
  });

  it.each([
    ["schoolA", () => recordOf(w.students.bOpen.id, w.cohorts.open.id)],
    ["schoolA", () => recordOf(w.students.aTwoCohorts.id, w.cohorts.hiddenAtA.id)],
    ["schoolA", () => recordOf(w.students.aAllHidden.id, w.cohorts.hiddenAll.id)],
    ["districtAB", () => recordOf(w.students.cOpen.id, w.cohorts.open.id)],
    ["admin", () => recordOf(w.students.demo.id, w.cohorts.demo.id)],
  ] as Array<[WorldUserKey, () => Promise<{ id: number }>]>)("%s gets 404 for a meeting outside their scope, and nothing changes", async (user, find) => {
    const record = await find();
    const before = await row(record.id);
    const res = await put(user, record.id, { status: "late" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    expect(await row(record.id)).toEqual(before);
  });

  it("answers 404 for an unknown record and 401 without a session", async () => {
    expect((await put("superAdmin", 987654, { status: "late" })).statusCode).toBe(404);
    const record = await recordOf(w.students.aMover.id, w.cohorts.open.id);
    expect((await put(null, record.id, { status: "late" })).statusCode).toBe(401);
  });

  it("refuses where student editing is off for the meeting's school (403); admins may always", async () => {
    const record = await recordOf(w.students.aMover.id, w.cohorts.open.id);
    const before = await row(record.id);
    await setSetting(t.db, "features", {
      enableExport: true,
      enableStudentEditing: true,
      applyToAllSchools: false,
      schoolSettings: { [String(w.schools.a.id)]: { enableExport: true, enableStudentEditing: false } },
    });
    const refused = await put("schoolA", record.id, { status: before.status === "late" ? "present" : "late" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("Student editing is turned off for this school.");
    expect(await row(record.id)).toEqual(before);
    expect((await put("districtAB", (await recordOf(w.students.bOpen.id, w.cohorts.open.id)).id, { status: "late" })).statusCode).toBe(200);
    expect((await put("admin", record.id, { status: "late" })).statusCode).toBe(200);
  });

  it.each([
    [{ status: "present", excused: true }, "body.excused", "Only an absent meeting can be excused"],
    [{ status: "maybe" }, "body.status", "status must be present, late or absent"],
    [{}, "body.status", "status must be present, late or absent"],
    [{ status: "absent", excused: "yes" }, "body.excused", "excused must be true or false"],
  ])("answers 400 naming the field for %j", async (payload, path, message) => {
    const record = await recordOf(w.students.aMover.id, w.cohorts.open.id);
    const before = await row(record.id);
    const res = await put("admin", record.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual(expect.objectContaining({ path, message }));
    expect(await row(record.id)).toEqual(before);
  });

  it("answers 400 for an unknown field or an id that is not one", async () => {
    const record = await recordOf(w.students.aMover.id, w.cohorts.open.id);
    expect((await put("admin", record.id, { status: "late", week: 3 })).statusCode).toBe(400);
    expect((await put("admin", "abc", { status: "late" })).statusCode).toBe(400);
  });
});
