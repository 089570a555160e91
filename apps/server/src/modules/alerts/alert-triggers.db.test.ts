import type { ImportCommit } from "@tally/contract";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { postImport } from "../../../test/import-upload.js";
import { buildKimAndLeeWhoMissedWeek1, type KimAndLee, kimAndLeeWeek, missRuns } from "../../../test/kim-and-lee.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import * as rulesService from "./alert-rules.service.js";

// The evaluation runs after a real weekly import commit and after its undo, and never fails the
// import. Kim and Lee missed week 1's mentor meeting; the week-2 file says they missed again,
// which makes two in a row (consecutive misses at its default count of 2).

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });

const form = (week: number, date: string, kim: string, lee: string) => kimAndLeeWeek(ids.cohort, week, date, kim, lee);

let ids: KimAndLee;

beforeAll(async () => {
  ids = await buildKimAndLeeWhoMissedWeek1(t.db);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const runs = (studentId: number) => missRuns(t.db, studentId);

describe("alerts after imports", () => {
  it("raises alerts after a weekly import commit (raised by its batch), and withdraws them on its undo", async () => {
    const res = await postImport(t, "commit", admin.headers, form(2, "2026-03-10", "Absent", "Absent"));
    expect(res.statusCode, res.body).toBe(200);
    const { batchId } = res.json<ImportCommit>();
    const [kims] = await runs(ids.kim);
    const [lees] = await runs(ids.lee);
    expect(kims).toMatchObject({ state: "open", level: 2, raised_by_batch: batchId, condition_ended_at: null });
    expect(lees).toMatchObject({ state: "open", raised_by_batch: batchId });

    // Lee's is acknowledged: the undo keeps it, marked; Kim's nobody touched goes.
    await t.db.updateTable("alerts").set({ state: "acknowledged" }).where("id", "=", lees!.id).execute();
    await t.db.insertInto("alert_events").values({ alert_id: lees!.id, at: new Date(), kind: "acknowledged", user_id: admin.user.id, note: null, level: null }).execute();
    const undo = await t.app.inject({ method: "POST", url: `/api/imports/${batchId}/undo`, headers: admin.headers, payload: {} });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await runs(ids.kim)).toEqual([]);
    const [kept] = await runs(ids.lee);
    expect(kept).toMatchObject({ state: "acknowledged", data_withdrawn: true });
    expect(kept!.condition_ended_at).not.toBeNull();
  });

  it("never fails the import when the evaluation throws: the week is stored, no alert is written", async () => {
    await t.db.deleteFrom("alerts").execute();
    vi.spyOn(rulesService, "readAlertRules").mockRejectedValue(new Error("evaluation broke"));
    const res = await postImport(t, "commit", admin.headers, form(2, "2026-03-10", "Absent", "Present"));
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.db.selectFrom("attendance_records").select("status").where("student_id", "=", ids.kim).where("week_number", "=", 2).execute();
    expect(stored).toEqual([{ status: "absent" }]);
    expect(await runs(ids.kim)).toEqual([]);
  });
});
