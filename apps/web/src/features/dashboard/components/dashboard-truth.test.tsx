import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { pickComboboxOption } from "../../../testing/combobox";
import { renderApp } from "../../../testing/render-app";
import { buildStudents, callsTo, mockDashboardApi } from "../../../testing/fake-dashboard-api";
import { CHOOSE_COHORT } from "./trend-rows";

// Issue 29: every figure on the dashboard answers the same question: the filters in the URL
// and the search, never the whole programme beside one student.

const SLOW = { timeout: 4000 };
const TRENDS = [
  { week: 1, mentorPresent: 80, mentorLate: 6, advisorPresent: 70, advisorLate: 0 },
  { week: 2, mentorPresent: 78, mentorLate: 4, advisorPresent: 72, advisorLate: 0 },
];

describe("the dashboard's URL", () => {
  it("opens with the URL's filters and search, and asks every figure for them", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi({ trends: TRENDS });
    renderApp("/dashboard?school=1&cohort=10&q=Student1");
    await screen.findByRole("heading", { name: /^Students \(/ }, SLOW);
    expect((screen.getByRole("combobox", { name: "School" }) as HTMLInputElement).value).toBe("North High");
    expect((screen.getByRole("combobox", { name: "Cohort" }) as HTMLInputElement).value).toBe("Spring 2025");
    expect((screen.getByPlaceholderText("Search by student name, cohort, team, school") as HTMLInputElement).value).toBe("Student1");
    for (const path of ["/students", "/students/summary", "/attendance/cohort-trends"]) {
      await waitFor(() => expect(callsTo(fetchMock, path).at(-1)?.get("q")).toBe("Student1"));
      expect(callsTo(fetchMock, path).at(-1)!.get("school_id")).toBe("1");
      expect(callsTo(fetchMock, path).at(-1)!.get("cohortId")).toBe("10");
    }
    expect(screen.getByTestId("search-scope").textContent).toContain("Student1");
  });

  it("opens on the current cohort when the URL names none, and keeps following it", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi();
    const { router } = renderApp("/dashboard");
    await screen.findByRole("heading", { name: /^Students \(/ }, SLOW);
    // The fake cohorts all lie in 2025: Fall 2025 started last.
    expect((screen.getByRole("combobox", { name: "Cohort" }) as HTMLInputElement).value).toBe("Fall 2025");
    expect(screen.getByText("The current cohort")).toBeTruthy();
    for (const path of ["/students", "/students/summary"]) expect(callsTo(fetchMock, path).every((p) => p.get("cohortId") === "11")).toBe(true);
    expect(router.state.location.search).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Clear Filters" }));
    await waitFor(() => expect(router.state.location.search).toBe("?cohort=all"));
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
  });

  it("writes a choice to the URL, and Back undoes it", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi();
    const { router } = renderApp("/dashboard?cohort=all");
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    const school = screen.getByRole("combobox", { name: "School" });
    await pickComboboxOption(school as HTMLInputElement, "South High");
    await waitFor(() => expect(router.state.location.search).toContain("school=2"));
    await screen.findByRole("heading", { name: "Students (8)" }, SLOW);
    await act(() => router.navigate(-1));
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    expect(router.state.location.search).not.toContain("school=");
  });

  it("brings the filters back after a trip to another screen", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi();
    const { router } = renderApp("/dashboard?school=2&cohort=all&q=Student");
    await screen.findByRole("heading", { name: /^Students \(/ }, SLOW);
    await act(() => router.navigate("/admin/settings"));
    await act(() => router.navigate("/dashboard"));
    await waitFor(() => expect(router.state.location.search).toBe("?school=2&cohort=all&q=Student"));
    await waitFor(() => expect((screen.getByRole("combobox", { name: "School" }) as HTMLInputElement).value).toBe("South High"), SLOW);
  });
});

describe("the search", () => {
  it("with no result shows no chart beside the zero totals, and offers the closest name", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi({ trends: TRENDS, suggestion: "Student12 Tester" });
    const { router } = renderApp("/dashboard?cohort=10&q=Studnet12");
    expect(await screen.findByText("No students found for “Studnet12”.", {}, SLOW)).toBeTruthy();
    expect(screen.getByTestId("stat-Total Students").textContent).toBe("0");
    expect(await screen.findByText("No attendance data available for the selected filters.", {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId("trend-chart")).toBeNull();
    expect(screen.queryByTestId("stat-attendance")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Student12 Tester" }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get("q")).toBe("Student12 Tester"));
    await waitFor(() => expect(callsTo(fetchMock, "/students").at(-1)!.get("q")).toBe("Student12 Tester"));
  });
});

describe("a search that finds nobody in the chosen cohort (issue 41)", () => {
  it("says how many students it finds in other cohorts, and searches all cohorts in one click", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi();
    // No cohort in the URL: the running cohort, Fall 2025; Student30 is in South Cohort.
    const { router } = renderApp("/dashboard?q=Student30");
    const hint = await screen.findByTestId("search-elsewhere", {}, SLOW);
    expect(hint.textContent).toBe("No students match “Student30” in the current cohort, Fall 2025. 1 student matches in other cohorts.Search all cohorts");
    // The check is the summary's count with the cohort left out, without last week's totals.
    const check = callsTo(fetchMock, "/students/summary").filter((p) => !p.has("cohortId"));
    expect(check.map((p) => [p.get("q"), p.get("previousWeek")])).toEqual([["Student30", null]]);
    fireEvent.click(within(hint).getByRole("button", { name: "Search all cohorts" }));
    await waitFor(() => expect(router.state.location.search).toBe("?q=Student30&cohort=all"));
    expect(await screen.findByRole("article", { name: "Student30 Tester" }, SLOW)).toBeTruthy();
    expect(screen.queryByTestId("search-elsewhere")).toBeNull();
  });

  it("counts several, and names the team when one is chosen", async () => {
    signIn(buildUser({ role: "admin" }));
    // Falcons left empty: at North High, Student1, 11, 13, 15, 17 and 19 are in Hawks and Eagles.
    mockDashboardApi({ students: buildStudents(30).filter((s) => s.team?.id !== 100) });
    renderApp("/dashboard?school=1&cohort=10&team=100&q=Student1");
    const hint = await screen.findByTestId("search-elsewhere", {}, SLOW);
    expect(hint.textContent).toContain("No students match “Student1” in Falcons, Spring 2025. 6 students match in other teams and cohorts.");
  });

  it("asks nothing more when the cohort finds someone, and says nothing when no cohort does", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi();
    renderApp("/dashboard?cohort=10&q=Student11");
    expect(await screen.findByRole("article", { name: "Student11 Tester" }, SLOW)).toBeTruthy();
    expect(callsTo(fetchMock, "/students/summary").every((p) => p.get("cohortId") === "10")).toBe(true);
    expect(screen.queryByTestId("search-elsewhere")).toBeNull();

    signIn(buildUser({ role: "admin" }));
    const nobody = mockDashboardApi();
    renderApp("/dashboard?cohort=10&q=Nobody");
    expect(await screen.findByText("No students found for “Nobody”.", {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(callsTo(nobody, "/students/summary").filter((p) => !p.has("cohortId"))).toHaveLength(1));
    expect(screen.queryByTestId("search-elsewhere")).toBeNull();
  });
});

describe("the trend", () => {
  it("never adds the weeks of several cohorts together", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi({ trends: TRENDS });
    renderApp("/dashboard?cohort=all");
    expect((await screen.findAllByText(CHOOSE_COHORT, {}, SLOW)).length).toBe(2);
    expect(screen.queryByTestId("trend-chart")).toBeNull();
    expect(callsTo(fetchMock, "/attendance/cohort-trends")).toHaveLength(0);
  });

  it("says where its fitted axis starts and gives the change since last week", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ trends: TRENDS });
    renderApp("/dashboard?cohort=10");
    await screen.findByTestId("trend-chart", {}, SLOW);
    expect(screen.getByTestId("trend-axis-note").textContent).toBe(
      "The axis runs from 65% to 95%, not from zero, so that weekly changes show.",
    );
    expect(screen.getByTestId("trend-change").textContent).toBe(
      "Week 2 · 13–19 Jan: Mentor −4 pts vs last week · Advisor +2 pts vs last week",
    );
    const card = screen.getByTestId("stat-attendance");
    expect(card.textContent).toContain("Week 2 · 13–19 Jan");
    expect(card.textContent).toContain("82%mentor−4 pts vs last week");
    expect(card.textContent).toContain("72%advisor+2 pts vs last week");
  });

  it("shows a single week as its figures, not a lone dot", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ trends: TRENDS.slice(0, 1) });
    renderApp("/dashboard?cohort=10");
    const week = await screen.findByTestId("trend-one-week", {}, SLOW);
    expect(week.textContent).toContain("Week 1 · 6–12 Jan");
    expect(within(week).getByRole("group", { name: "Mentor meetings attended" }).textContent).toContain("86%");
    expect(screen.queryByTestId("trend-chart")).toBeNull();
  });
});

describe("each student", () => {
  it("shows the newest week's flags and attendance on its card", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ students: buildStudents(1) });
    renderApp("/dashboard?cohort=all");
    const card = await screen.findByRole("article", { name: "Student1 Tester" }, SLOW);
    expect(within(card).getByRole("group", { name: "Week 3 · 1 flag · 50% attended" })).toBeTruthy();
    const lonely = screen.getByRole("article", { name: "Lonely Learner" });
    expect(within(lonely).getByText("No weekly data yet")).toBeTruthy();
  });
});
