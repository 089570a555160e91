import { type DashboardFilter, dashboardFilterParams, dashboardFilterQuerySchema } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { parseDashboardFilter } from "./dashboard-filter.js";

const parse = (query: Record<string, string>) => parseDashboardFilter(dashboardFilterQuerySchema.parse(query));

describe("the dashboard filter set", () => {
  it("reads school_id and schoolIds as one school list that both narrow", () => {
    expect(parse({ school_id: "2" }).schoolIds).toEqual([2]);
    expect(parse({ schoolIds: "1,2,3" }).schoolIds).toEqual([1, 2, 3]);
    expect(parse({ school_id: "2", schoolIds: "1,2" }).schoolIds).toEqual([2]);
    expect(parse({ school_id: "4", schoolIds: "1,2" }).schoolIds).toEqual([]);
    expect(parse({ schoolIds: "" }).schoolIds).toBeUndefined();
  });

  it("keeps the other filters under their own names; blank search is none", () => {
    expect(parse({ cohortId: "7", teamId: "9", q: "  ada ", respectVisibility: "true" })).toEqual({
      schoolIds: undefined,
      cohortId: 7,
      teamId: 9,
      q: "ada",
      respectVisibility: true,
    });
    expect(parse({ q: "   " }).q).toBeUndefined();
  });

  it("reads back what the web writes", () => {
    const filters: DashboardFilter[] = [
      { schoolIds: [3], cohortId: 4, teamId: 5, q: "lee", respectVisibility: true },
      { schoolIds: [1, 2] },
      {},
    ];
    for (const filter of filters) {
      const sent = Object.fromEntries(
        Object.entries(dashboardFilterParams(filter)).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
      );
      const read = parseDashboardFilter(dashboardFilterQuerySchema.parse(sent));
      expect(read).toEqual({ schoolIds: undefined, cohortId: undefined, teamId: undefined, q: undefined, respectVisibility: undefined, ...filter });
    }
  });
});
