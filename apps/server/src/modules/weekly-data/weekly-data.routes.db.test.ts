import type { WeeklyDataItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey, useDemoToggles } from "../../../test/dashboard-world.js";

const { t, w, as } = useDashboardWorld();

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

describe("GET /api/weekly-data/:studentId", () => {
  // The admins' "other" cases are demo students: closed to admins here (adminAccess off); the
  // demo dashboard's own reads, with it on, are in settings/demo-settings.routes.db.test.ts.
  useDemoToggles(t, { adminAccess: false });
  it("lists the weeks with flags, reflection, notes, hours and dates", async () => {
    const res = await get("schoolA", `/api/weekly-data/${w.students.aTwoCohorts.id}?cohortId=${w.cohorts.open.id}`);
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: WeeklyDataItem[] }>().data;
    expect(data.map((d) => d.week_number)).toEqual([1, 2]);
    expect(data[1]).toMatchObject({
      cohort_id: w.cohorts.open.id,
      week_number: 2,
      week_start: "2025-01-13",
      flags: [{ code: "LOW_HOURS", text: "Low hours" }],
      reflection: "Week two went well",
      advisor_notes: "Keep going",
      total_hours_reported: 12.5,
    });
    expect(Number.isNaN(Date.parse(data[1]?.updated_at ?? ""))).toBe(false);
  });

  it("leaves out cohorts hidden at the student's school for school users, not for admins", async () => {
    const id = w.students.aTwoCohorts.id;
    expect((await get("schoolA", `/api/weekly-data/${id}`)).json().data).toHaveLength(2);
    expect((await get("admin", `/api/weekly-data/${id}`)).json().data).toHaveLength(3);
    expect((await get("schoolA", `/api/weekly-data/${id}?cohortId=${w.cohorts.hiddenAtA.id}`)).json().data).toEqual([]);
  });

  const cases: Array<[WorldUserKey, string, number, () => number]> = [
    ["superAdmin", "own", 200, () => w.students.bOpen.id],
    ["superAdmin", "other", 404, () => w.students.demo.id],
    ["superAdmin", "missing", 404, () => 987654],
    ["admin", "own", 200, () => w.students.aTwoCohorts.id],
    ["admin", "other", 404, () => w.students.demo.id],
    ["admin", "missing", 404, () => 987654],
    ["districtAB", "own", 200, () => w.students.bOpen.id],
    ["districtAB", "other", 404, () => w.students.cOpen.id],
    ["districtAB", "missing", 404, () => 987654],
    ["schoolA", "own", 200, () => w.students.aTwoCohorts.id],
    ["schoolA", "other", 404, () => w.students.bOpen.id],
    ["schoolA", "missing", 404, () => 987654],
    ["schoolA", "other", 404, () => w.students.aAllHidden.id],
  ];
  it.each(cases)("%s, %s student → %i", async (user, _kind, status, id) => {
    const res = await get(user, `/api/weekly-data/${id()}`);
    expect(res.statusCode).toBe(status);
    if (status === 404) expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    else expect(res.json().data.length).toBeGreaterThan(0);
  });

  it("answers 400 for bad input and 401 without a session", async () => {
    expect((await get("admin", "/api/weekly-data/x")).statusCode).toBe(400);
    expect((await get("admin", `/api/weekly-data/${w.students.bOpen.id}?cohortId=0`)).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: `/api/weekly-data/${w.students.bOpen.id}` })).statusCode).toBe(401);
  });
});
