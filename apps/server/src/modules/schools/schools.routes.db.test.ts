import type { SchoolItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";

const { t, w, as } = useDashboardWorld();

describe("GET /api/schools", () => {
  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/schools" })).statusCode).toBe(401);
  });

  it.each([
    ["superAdmin", ["Alder High", "Birch Academy", "Cedar College"]],
    ["admin", ["Alder High", "Birch Academy", "Cedar College"]],
    ["districtAB", ["Alder High", "Birch Academy"]],
    ["districtNone", []],
    ["schoolA", ["Alder High"]],
    ["schoolB", ["Birch Academy"]],
  ] as Array<[WorldUserKey, string[]]>)("lists the schools %s may see (never the demo school for admins)", async (user, expected) => {
    const res = await t.app.inject({ method: "GET", url: "/api/schools", headers: as[user] });
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: SchoolItem[] }>().data;
    expect(data.map((s) => s.name)).toEqual(expected);
    expect(data.every((s) => typeof s.id === "number" && typeof s.district === "string")).toBe(true);
    expect(data.some((s) => s.id === w.schools.demo.id)).toBe(false);
  });
});
