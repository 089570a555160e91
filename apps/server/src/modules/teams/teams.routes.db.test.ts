import type { TeamItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";

const { t, w, as } = useDashboardWorld();

const names = async (user: WorldUserKey, url: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: as[user] });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: TeamItem[] }>().data.map((x) => x.name);
};

describe("GET /api/teams", () => {
  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/teams" })).statusCode).toBe(401);
  });

  it("lists teams in scope with visible cohorts only, by name", async () => {
    expect(await names("schoolA", "/api/teams")).toEqual(["Alder Demo Team", "Alder Falcons", "Alder Hawks"]);
    expect(await names("schoolB", "/api/teams")).toEqual(["Birch Lynx", "Birch Otters", "Birch Owls"]);
    expect(await names("districtAB", "/api/teams")).toEqual([
      "Alder Demo Team", "Alder Falcons", "Alder Hawks", "Birch Lynx", "Birch Otters", "Birch Owls",
    ]);
    expect(await names("districtNone", "/api/teams")).toEqual([]);
    const adminTeams = await names("admin", "/api/teams");
    expect(adminTeams).toEqual([
      "Alder Falcons", "Alder Hawks", "Alder Secret", "Alder Shadow", "Birch Lynx", "Birch Otters", "Birch Owls", "Cedar Moles", "Cedar Wolves",
    ]);
    expect(await names("superAdmin", "/api/teams")).toEqual(adminTeams);
  });

  it("carries descriptions, school and cohort names", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/teams?cohortId=${w.cohorts.open.id}&school_id=${w.schools.c.id}`, headers: as.admin });
    expect(res.json<{ data: TeamItem[] }>().data).toEqual([
      {
        id: w.teams.c1.id,
        name: "Cedar Wolves",
        school_id: w.schools.c.id,
        school_name: "Cedar College",
        cohort_id: w.cohorts.open.id,
        cohort_name: "Spring Open",
        organization_description: "Cedar Wolves organisation",
        project_description: "Cedar Wolves project",
        start_date: "2025-01-06",
      },
    ]);
  });

  it("narrows by school and cohort without widening", async () => {
    expect(await names("districtAB", `/api/teams?schoolIds=${w.schools.b.id},${w.schools.c.id}`)).toEqual(["Birch Lynx", "Birch Otters", "Birch Owls"]);
    expect(await names("schoolA", `/api/teams?school_id=${w.schools.b.id}`)).toEqual([]);
    expect(await names("schoolA", `/api/teams?cohortId=${w.cohorts.hiddenAtA.id}`)).toEqual([]);
    expect(await names("admin", `/api/teams?cohortId=${w.cohorts.demo.id}`)).toEqual([]);
    // The demo school named alone: its dashboard (demo adminAccess, on by default).
    expect(await names("admin", `/api/teams?school_id=${w.schools.demo.id}`)).toEqual(["Demo Team"]);
    expect(await names("admin", "/api/teams?school_id=987654")).toEqual([]);
    expect(await names("admin", `/api/teams?respectVisibility=true&school_id=${w.schools.a.id}`)).toEqual(["Alder Falcons", "Alder Hawks"]);
  });

  it("answers 400 for bad filters", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/teams?cohortId=abc", headers: as.admin })).statusCode).toBe(400);
  });
});
