import type { ImportCommit, ImportPreview, StudentAttendanceResponse } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { importTablesSnapshot, postImport } from "../../../test/import-upload.js";
import { buildKimAndLee, type KimAndLee, kimAndLeeWeek } from "../../../test/kim-and-lee.js";
import { expectRollupsMatchRecount } from "../../../test/rollup-checks.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";

// Issue 30: a meeting report's Excused is an absence in every count, and the record keeps that
// it was excused; a switch between Excused and Absent is a change the import writes and undoes.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });

const form = (kim: string, lee: string) => kimAndLeeWeek(ids.cohort, 2, "2026-03-10", kim, lee);

let ids: KimAndLee;

beforeAll(async () => {
  ids = await buildKimAndLee(t.db);
});

const records = () =>
  t.db
    .selectFrom("attendance_records")
    .select(["student_id", "status", "excused"])
    .where("cohort_id", "=", ids.cohort)
    .orderBy("student_id")
    .execute();

async function summary(): Promise<{ present: number; late: number; absent: number }> {
  const { rows } = await sql<{ present: number; late: number; absent: number }>`select sum(present)::int as present,
      sum(late)::int as late, sum(absent)::int as absent from attendance_summary where cohort_id = ${ids.cohort}`.execute(t.db);
  return rows[0]!;
}

async function commit(kim: string, lee: string): Promise<ImportCommit> {
  const res = await postImport(t, "commit", admin.headers, form(kim, lee));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportCommit>();
}

describe("an Excused meeting row", () => {
  it("previews as absent and excused, a plain Absent as not excused", async () => {
    const res = await postImport(t, "preview", admin.headers, form("Excused", "Absent"));
    expect(res.statusCode, res.body).toBe(200);
    const details = res.json<ImportPreview>().processedStudentDetails;
    const attendanceOf = (name: string) => details.find((d) => d.studentFullName === name)?.attendance;
    expect(attendanceOf("Kim Park")).toEqual([{ date: "2026-03-10", status: "absent", excused: true, meetingType: "mentor", action: "created" }]);
    expect(attendanceOf("Lee Chan")).toEqual([{ date: "2026-03-10", status: "absent", excused: false, meetingType: "mentor", action: "created" }]);
  });

  it("is kept as excused with status absent, and counts as an absence like Absent", async () => {
    await commit("Excused", "Absent");
    expect(await records()).toEqual([
      { student_id: ids.kim, status: "absent", excused: true },
      { student_id: ids.lee, status: "absent", excused: false },
    ]);
    expect(await summary()).toEqual({ present: 0, late: 0, absent: 2 });
    await expectRollupsMatchRecount(t.db);
  });

  it("comes back from the student's attendance API as excused, counted as neither present nor late", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/attendance/student/${ids.kim}`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<StudentAttendanceResponse>();
    expect(body.data).toMatchObject([{ status: "absent", excused: true, meeting_type: "mentor", date: "2026-03-10" }]);
    expect(body.weeks).toEqual([{ week: 2, mentor: { present: 0, late: 0 }, advisor: { present: 0, late: 0 } }]);
    const lee = (await t.app.inject({ method: "GET", url: `/api/attendance/student/${ids.lee}`, headers: admin.headers })).json<StudentAttendanceResponse>();
    expect(lee.data.map((r) => r.excused)).toEqual([false]);
  });

  it("re-imported the same is no change; switched Excused↔Absent it is an update, and undo restores the flags", async () => {
    const same = await postImport(t, "preview", admin.headers, form("Excused", "Absent"));
    expect(same.json<ImportPreview>().summary).toMatchObject({ attendanceRecordsCreated: 0, attendanceRecordsUpdated: 0 });

    const preview = await postImport(t, "preview", admin.headers, form("Absent", "Excused"));
    expect(preview.json<ImportPreview>().summary).toMatchObject({ attendanceRecordsCreated: 0, attendanceRecordsUpdated: 2 });
    const before = await importTablesSnapshot(t.db);
    // The same files as the preview: the commit may write the preview's kept plan.
    const switched = await commit("Absent", "Excused");
    expect(switched.summary).toMatchObject({ attendanceRecordsCreated: 0, attendanceRecordsUpdated: 2 });
    expect(await records()).toEqual([
      { student_id: ids.kim, status: "absent", excused: false },
      { student_id: ids.lee, status: "absent", excused: true },
    ]);
    expect(await summary()).toEqual({ present: 0, late: 0, absent: 2 });
    await expectRollupsMatchRecount(t.db);

    const undo = await t.app.inject({ method: "POST", url: `/api/imports/${switched.batchId}/undo`, headers: admin.headers });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().data).toMatchObject({ attendanceRecordsRestored: 2 });
    expect(await importTablesSnapshot(t.db)).toEqual(before);
    expect((await records()).map((r) => r.excused)).toEqual([true, false]);
  });
});
