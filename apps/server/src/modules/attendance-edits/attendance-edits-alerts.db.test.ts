import type { ImportCommit, ImportUndoConflict } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { postImport } from "../../../test/import-upload.js";
import { buildKimAndLeeWhoMissedWeek1, type KimAndLee, kimAndLeeWeek, missRuns } from "../../../test/kim-and-lee.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { lockImports } from "../../db/import-lock.js";

// A correction is one of issue 30's triggers: the student's alerts are evaluated again at once.
// Kim and Lee missed week 1's mentor meeting and, by the week-2 import, week 2's: two in a row.

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });
let ids: KimAndLee;
let batchId: number;

beforeAll(async () => {
  ids = await buildKimAndLeeWhoMissedWeek1(t.db);
  const res = await postImport(t, "commit", admin.headers, kimAndLeeWeek(ids.cohort, 2, "2026-03-10", "Absent", "Absent"));
  expect(res.statusCode, res.body).toBe(200);
  batchId = res.json<ImportCommit>().batchId;
});

const runs = (studentId: number) => missRuns(t.db, studentId);
const week2 = (studentId: number) =>
  t.db.selectFrom("attendance_records").select(["id", "status", "excused"]).where("student_id", "=", studentId).where("week_number", "=", 2).executeTakeFirst();
const correct = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/attendance/${id}`, headers: admin.headers, payload });

describe("alerts after an attendance correction", () => {
  it("ends the run a corrected miss made, opens it again when corrected back, and leaves other students alone", async () => {
    const [kimRun] = await runs(ids.kim);
    const leeBefore = await runs(ids.lee);
    expect(kimRun).toMatchObject({ state: "open", level: 2, condition_ended_at: null });
    expect(leeBefore).toHaveLength(1);
    const record = (await week2(ids.kim))!;

    expect((await correct(record.id, { status: "present" })).statusCode).toBe(200);
    const [ended] = await runs(ids.kim);
    expect(ended!.condition_ended_at).not.toBeNull();
    expect(await runs(ids.lee)).toEqual(leeBefore);

    expect((await correct(record.id, { status: "absent" })).statusCode).toBe(200);
    const again = await runs(ids.kim);
    expect(again).toHaveLength(2);
    expect(again[1]).toMatchObject({ state: "open", level: 2, condition_ended_at: null });
    expect(again[1]!.evidence).toBe("Missed 2 meetings in a row: mentor 3 Mar, mentor 10 Mar");

    // Excused neither breaks nor extends a run: one miss, then an excused meeting, is no run of two.
    expect((await correct(record.id, { status: "absent", excused: true })).statusCode).toBe(200);
    expect((await runs(ids.kim))[1]!.condition_ended_at).not.toBeNull();
  });

  it("waits while an import or an undo holds the imports' lock, and goes on once it ends", async () => {
    const record = (await week2(ids.kim))!;
    const order: string[] = [];
    let lockTaken!: () => void;
    let release!: () => void;
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const importRunning = t.db.transaction().execute(async (trx) => {
      await lockImports(trx);
      lockTaken();
      await released;
      order.push("import ended");
    });
    await taken;
    const correction = correct(record.id, { status: "late" }).then((res) => {
      order.push("corrected");
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order, "the correction waits for the import").toEqual([]);
    release();
    await importRunning;
    expect((await correction).statusCode).toBe(200);
    expect(order).toEqual(["import ended", "corrected"]);
    expect(await week2(ids.kim)).toMatchObject({ status: "late", excused: false });
  });

  it("makes the week's undo name the student whose meeting was corrected, and keep that meeting when asked", async () => {
    const kimRecord = (await week2(ids.kim))!;
    const refused = await t.app.inject({ method: "POST", url: `/api/imports/${batchId}/undo`, headers: admin.headers, payload: {} });
    expect(refused.statusCode).toBe(409);
    const body = refused.json<ImportUndoConflict>();
    expect(body.code).toBe("STUDENTS_EDITED");
    expect(body.editedStudents).toEqual([{ id: ids.kim, name: "Kim Park", changes: expect.any(Array) }]);
    expect(body.editedStudents![0]!.changes.every((c) => c.fields.join() === "attendance" && c.by === admin.user.username)).toBe(true);
    expect(await week2(ids.lee)).toBeDefined();

    const undo = await t.app.inject({ method: "POST", url: `/api/imports/${batchId}/undo`, headers: admin.headers, payload: { keepEditedStudents: true } });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await week2(ids.kim)).toEqual(kimRecord);
    expect(await week2(ids.lee)).toBeUndefined();
  });
});
