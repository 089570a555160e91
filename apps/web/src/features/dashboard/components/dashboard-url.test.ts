import type { CohortItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { readUrlFilters, runningCohort, writeUrlFilters } from "./dashboard-url";

const cohort = (id: number, start: string, end: string): CohortItem => ({
  id,
  name: `C${id}`,
  program_type: "p",
  start_date: start,
  end_date: end,
  total_expected_hours: null,
});

describe("the dashboard's URL", () => {
  it("reads school, cohort (or all), team and search; ignores what is not an id", () => {
    expect(readUrlFilters(new URLSearchParams("school=2&cohort=10&team=103&q=jos%C3%A9"))).toEqual({
      schoolId: 2,
      cohort: 10,
      teamId: 103,
      q: "josé",
    });
    expect(readUrlFilters(new URLSearchParams("cohort=all"))).toMatchObject({ cohort: "all" });
    expect(readUrlFilters(new URLSearchParams("school=x&cohort=-1&team=1e3"))).toEqual({ schoolId: null, cohort: undefined, teamId: null, q: "" });
  });

  it("writes the bar's choice, keeping the search and leaving the running cohort implicit", () => {
    const params = new URLSearchParams("q=garcia&cohort=10");
    expect(writeUrlFilters(params, { schoolId: 1, cohortId: 11, teamId: null }, false).toString()).toBe("q=garcia&cohort=11&school=1");
    expect(writeUrlFilters(params, { schoolId: null, cohortId: null, teamId: null }, false).get("cohort")).toBe("all");
    expect(writeUrlFilters(params, { schoolId: null, cohortId: 11, teamId: null }, true).has("cohort")).toBe(false);
  });
});

describe("the running cohort", () => {
  const now = new Date(2026, 10, 26, 12);
  it("is the cohort running today, the latest to start when several are", () => {
    const cohorts = [cohort(1, "2026-09-01", "2026-12-18"), cohort(2, "2026-10-26", "2026-12-04"), cohort(3, "2027-01-04", "2027-02-12")];
    expect(runningCohort(cohorts, now)?.id).toBe(2);
  });
  it("is the latest to have started between cohorts, none before the first", () => {
    expect(runningCohort([cohort(1, "2026-01-05", "2026-02-13"), cohort(2, "2026-03-02", "2026-04-10")], now)?.id).toBe(2);
    expect(runningCohort([cohort(3, "2027-01-04", "2027-02-12")], now)).toBeNull();
    expect(runningCohort([], now)).toBeNull();
  });
});
