import type { StudentsSummary } from "@tally/contract";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../../testing/render-app";
import { DashboardStats } from "./dashboard-stats";

const now = { schoolCount: 3, studentCount: 40, cohortCount: 2, teamCount: 8 };
const change = (label: string) => screen.getByTestId(`stat-${label}-change`).textContent;

describe("the four totals' week-over-week change", () => {
  it("says each change in words: up, down, none", () => {
    const summary: StudentsSummary = {
      ...now,
      previousWeek: { weekStart: "2025-02-10", schoolCount: 3, studentCount: 37, cohortCount: 2, teamCount: 12 },
    };
    renderWithProviders(<DashboardStats summary={summary} showSchoolCard />);
    expect(change("Total Students")).toBe("+3 vs last week");
    expect(change("Total Teams")).toBe("−4 vs last week");
    expect(change("Total Schools")).toBe("no change");
    expect(change("Total Cohorts")).toBe("no change");
    expect(screen.getByRole("group", { name: "Total Teams" }).textContent).toBe("Total Teams8−4 vs last week");
  });

  it("says there is no earlier week in the first week (or filters with no data then)", () => {
    renderWithProviders(<DashboardStats summary={{ ...now, previousWeek: null }} showSchoolCard={false} />);
    for (const label of ["Total Students", "Total Cohorts", "Total Teams"]) expect(change(label)).toBe("no earlier week");
    expect(screen.queryByRole("group", { name: "Total Schools" })).toBeNull();
  });

  it("counts a week with no data as a drop to zero", () => {
    const summary: StudentsSummary = {
      schoolCount: 0,
      studentCount: 0,
      cohortCount: 0,
      teamCount: 0,
      previousWeek: { weekStart: "2025-02-10", schoolCount: 1, studentCount: 1_250, cohortCount: 1, teamCount: 0 },
    };
    renderWithProviders(<DashboardStats summary={summary} showSchoolCard />);
    expect(change("Total Students")).toBe("−1,250 vs last week");
    expect(change("Total Teams")).toBe("no change");
  });

  it("shows no change line before the server has compared", () => {
    renderWithProviders(<DashboardStats summary={now} showSchoolCard />);
    expect(screen.queryByTestId("stat-Total Students-change")).toBeNull();
    expect(screen.getByTestId("stat-Total Students").textContent).toBe("40");
  });
});
