import type { CohortItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { manualClock } from "../../lib/clock.js";

const { t, w, as } = useDashboardWorld({ clock: manualClock(new Date("2025-02-10T12:00:00Z")) });

const names = async (user: WorldUserKey, url: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: as[user] });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: CohortItem[] }>().data.map((c) => c.name).sort();
};

describe("GET /api/cohorts", () => {
  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/cohorts" })).statusCode).toBe(401);
  });

  it("gives admins every cohort but the demo one", async () => {
    const all = ["Autumn Future", "Hidden At Alder", "Hidden Everywhere", "Shown At Birch", "Spring Open"];
    expect(await names("admin", "/api/cohorts")).toEqual(all);
    expect(await names("superAdmin", "/api/cohorts")).toEqual(all);
  });

  it("gives school and district users the visible cohorts used at their schools", async () => {
    expect(await names("schoolA", "/api/cohorts")).toEqual(["Demo Cohort", "Spring Open"]);
    expect(await names("schoolB", "/api/cohorts")).toEqual(["Hidden At Alder", "Shown At Birch", "Spring Open"]);
    expect(await names("districtAB", "/api/cohorts")).toEqual(["Demo Cohort", "Hidden At Alder", "Shown At Birch", "Spring Open"]);
    expect(await names("districtNone", "/api/cohorts")).toEqual([]);
  });

  it("narrows by school filters without widening", async () => {
    expect(await names("districtAB", `/api/cohorts?school_id=${w.schools.a.id}`)).toEqual(["Demo Cohort", "Spring Open"]);
    expect(await names("districtAB", `/api/cohorts?school_id=${w.schools.c.id}`)).toEqual([]);
    expect(await names("schoolA", `/api/cohorts?schoolIds=${w.schools.b.id},${w.schools.c.id}`)).toEqual([]);
    expect(await names("admin", `/api/cohorts?school_id=${w.schools.c.id}`)).toEqual(["Shown At Birch", "Spring Open"]);
    expect(await names("admin", `/api/cohorts?school_id=${w.schools.c.id}&respectVisibility=true`)).toEqual(["Spring Open"]);
    // The demo school named alone: its dashboard (demo adminAccess, on by default).
    expect(await names("admin", `/api/cohorts?school_id=${w.schools.demo.id}`)).toEqual(["Demo Cohort"]);
  });

  it("answers 400 for bad filters", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/cohorts?schoolIds=1;2", headers: as.admin });
    expect(res.statusCode).toBe(400);
  });
});

describe("GET /api/cohorts/active", () => {
  it("lists cohorts running on the clock's date, within scope", async () => {
    expect(await names("admin", "/api/cohorts/active")).toEqual(["Hidden At Alder", "Spring Open"]);
    expect(await names("schoolA", "/api/cohorts/active")).toEqual(["Demo Cohort", "Spring Open"]); // demo cohort runs to 2025-02-14
    expect(await names("schoolB", "/api/cohorts/active")).toEqual(["Hidden At Alder", "Spring Open"]);
    expect(await names("districtNone", "/api/cohorts/active")).toEqual([]);
  });
});
