import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildStudents, callsTo, mockDashboardApi } from "../../../testing/fake-dashboard-api";

/** Options of a Mantine Select (kept in the DOM; happy-dom never finishes the open transition). */
async function optionsOf(label: string): Promise<string[]> {
  const input = screen.getByRole("combobox", { name: label });
  // Disabled while the narrowed list loads.
  await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(false));
  fireEvent.click(input);
  await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
  const listbox = document.getElementById(input.getAttribute("aria-controls") ?? "");
  const names = listbox ? within(listbox).queryAllByRole("option", { hidden: true }).map((o) => o.textContent ?? "") : [];
  fireEvent.keyDown(input, { key: "Escape" });
  return names;
}

async function choose(label: string, option: string) {
  const input = screen.getByRole("combobox", { name: label });
  await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(false));
  fireEvent.click(input);
  await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
  const listbox = document.getElementById(input.getAttribute("aria-controls") ?? "")!;
  fireEvent.click(await within(listbox).findByRole("option", { name: option, hidden: true }));
  await waitFor(() => expect((input as HTMLInputElement).value).toBe(option));
}

function statValue(label: string): string | null {
  return screen.queryByTestId(`stat-${label}`)?.textContent ?? null;
}

// The first render loads the lazy page and several queries.
const SLOW = { timeout: 4000 };

describe("admin dashboard", () => {
  it("shows title, the four stat cards and the card grid with exact total and pagination", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi({ students: buildStudents(59) });
    renderApp("/dashboard?cohort=all");
    expect(await screen.findByText("Loading dashboard...", {}, SLOW)).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Admin Dashboard" }, SLOW)).toBeTruthy();
    expect(screen.getByText("Manage students and view analytics")).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Students (60)" }, SLOW)).toBeTruthy();
    expect(statValue("Total Schools")).toBe("2");
    expect(statValue("Total Students")).toBe("60");
    expect(statValue("Total Cohorts")).toBe("3");
    expect(statValue("Total Teams")).toBe("4");
    // Only one server page is rendered.
    expect(screen.getAllByTestId("student-card")).toHaveLength(24);
    expect(callsTo(fetchMock, "/students")[0]!.get("limit")).toBe("24");
    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));
    await waitFor(() => expect(screen.getAllByTestId("student-card")).toHaveLength(12));
    expect(callsTo(fetchMock, "/students").at(-1)!.get("page")).toBe("3");
    expect(screen.getByText("Showing 49–60 of 60")).toBeTruthy();
  });

  it("shows the card defaults for a student without cohort, team or school", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ students: buildStudents(0) });
    renderApp("/dashboard?cohort=all");
    const card = await screen.findByRole("article", { name: "Lonely Learner" });
    expect(within(card).getByText("No Cohort")).toBeTruthy();
    expect(within(card).getByText("No Team")).toBeTruthy();
    expect(within(card).getByText("Update School")).toBeTruthy();
    expect(within(card).getByRole("button", { name: /View Details/ })).toBeTruthy();
  });

  it("narrows cohorts and teams by school and cohort, and Clear Filters resets them", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi();
    renderApp("/dashboard?cohort=all");
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    // Across all schools the team list can run to thousands: it waits for a school.
    expect(callsTo(fetchMock, "/teams")).toHaveLength(0);
    expect(screen.getByRole("combobox", { name: "Team" })).toHaveProperty("disabled", true);

    await choose("School", "South High");
    await screen.findByRole("heading", { name: "Students (8)" }, SLOW);
    expect(callsTo(fetchMock, "/cohorts").at(-1)!.get("school_id")).toBe("2");
    expect(callsTo(fetchMock, "/teams").at(-1)!.get("school_id")).toBe("2");
    expect(callsTo(fetchMock, "/students/summary").at(-1)!.get("school_id")).toBe("2");
    expect(await optionsOf("Cohort")).toEqual(["South Cohort"]);

    await choose("School", "North High");
    await choose("Cohort", "Spring 2025");
    await waitFor(() => expect(callsTo(fetchMock, "/teams").at(-1)!.get("cohortId")).toBe("10"));
    expect(await optionsOf("Team")).toEqual(["Falcons", "Eagles"]);
    await choose("Team", "Eagles");
    await waitFor(() => expect(callsTo(fetchMock, "/students").at(-1)!.get("teamId")).toBe("103"));

    // Changing the parent clears the children.
    await choose("School", "South High");
    await waitFor(() => expect((screen.getByRole("combobox", { name: "Cohort" }) as HTMLInputElement).value).toBe(""));
    expect((screen.getByRole("combobox", { name: "Team" }) as HTMLInputElement).value).toBe("");

    fireEvent.click(screen.getByRole("button", { name: "Clear Filters" }));
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    expect((screen.getByRole("combobox", { name: "School" }) as HTMLInputElement).value).toBe("");
    expect(statValue("Total Students")).toBe("31");
  }, 20_000);

  it("shows every empty-state text when nothing matches", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ students: [], trends: [] });
    renderApp("/dashboard");
    expect(await screen.findByText("No students found matching the current filters.", {}, SLOW)).toBeTruthy();
    expect(await screen.findByText("No attendance data available for the selected filters.", {}, SLOW)).toBeTruthy();
    expect(await screen.findByText("No attendance records found.", {}, SLOW)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Students (0)" })).toBeTruthy();
  });

  it("charts present + late per meeting type, filters by meeting type and tabulates every week", async () => {
    signIn(buildUser({ role: "admin" }));
    const trends = [
      { week: 1, mentorPresent: 70, mentorLate: 10, advisorPresent: 50, advisorLate: 10 },
      { week: 2, mentorPresent: 80, mentorLate: 10, advisorPresent: 60, advisorLate: 20 },
    ];
    const fetchMock = mockDashboardApi({ trends });
    renderApp("/dashboard?cohort=10");
    const chart = await screen.findByTestId("trend-chart", {}, SLOW);
    expect(screen.getByRole("radio", { name: "Both" })).toHaveProperty("checked", true);
    expect(callsTo(fetchMock, "/attendance/cohort-trends")[0]!.get("meetingType")).toBe("both");
    const caption = () => chart.querySelector("figcaption")!.textContent;
    expect(caption()).toContain("Mentor meetings average 85%");
    expect(caption()).toContain("Advisor meetings average 70%");
    const table = screen.getByRole("table", { name: "Attendance by Week" });
    // Weeks carry their dates (Spring 2025 starts on 6 January).
    const week2 = within(table).getByRole("row", { name: /Week 2 · 13–19 Jan/ });
    expect(within(week2).getAllByRole("cell").map((c) => c.textContent)).toEqual(["80%", "10%", "60%", "20%"]);

    fireEvent.click(screen.getByRole("radio", { name: "Mentor" }));
    await waitFor(() => expect(callsTo(fetchMock, "/attendance/cohort-trends").at(-1)!.get("meetingType")).toBe("mentor"));
    await waitFor(() => expect(screen.getByTestId("trend-chart").querySelector("figcaption")!.textContent).not.toContain("Advisor"));
    expect(screen.getByTestId("trend-chart").querySelector("figcaption")!.textContent).toContain("Mentor meetings average 85%");
    // The table keeps both meeting types.
    expect(within(screen.getByRole("table", { name: "Attendance by Week" })).getAllByRole("row")).toHaveLength(3);
  });

  it("asks for the trend and the first student page beside the lists, not after them", async () => {
    signIn(buildUser({ role: "admin" }));
    // The summary never arrives, so the chart and the grid are never shown: their data was
    // asked for all the same, while the lists were loading.
    const fetchMock = mockDashboardApi({ failing: ["/students/summary"] });
    renderApp("/dashboard?cohort=10");
    expect(await screen.findByText("Failed to load dashboard data. Please try again.", {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId("student-card")).toBeNull();
    expect(callsTo(fetchMock, "/attendance/cohort-trends").map((c) => c.get("meetingType"))).toContain("both");
    expect(callsTo(fetchMock, "/students")[0]?.get("limit")).toBe("24");
  });

  it("shows the full-page failure with a working Retry", async () => {
    signIn(buildUser({ role: "admin" }));
    const failing = ["/students/summary"];
    mockDashboardApi({ failing });
    renderApp("/dashboard?cohort=all");
    expect(await screen.findByText("Failed to load dashboard data. Please try again.", {}, SLOW)).toBeTruthy();
    failing.length = 0;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("heading", { name: "Students (31)" }, SLOW)).toBeTruthy();
  });

  it("sends the header search as q after a pause", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi();
    renderApp("/dashboard?cohort=all");
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    fireEvent.change(screen.getByPlaceholderText("Search by student name, cohort, team, school"), {
      target: { value: "Student1" },
    });
    expect(callsTo(fetchMock, "/students").some((p) => p.get("q"))).toBe(false);
    expect(await screen.findByRole("heading", { name: "Students (11)" }, { timeout: 2000 })).toBeTruthy();
    expect(callsTo(fetchMock, "/students").at(-1)!.get("q")).toBe("Student1");
    expect(callsTo(fetchMock, "/students/summary").at(-1)!.get("q")).toBe("Student1");
  });

  it("tells other roles they may not view it", async () => {
    signIn(buildUser({ role: "school_user", school_id: 1 }));
    const { AdminDashboard } = await import("./admin-dashboard");
    renderApp("/x", [{ path: "/x", element: <AdminDashboard /> }]);
    expect(await screen.findByText("You do not have permission to view this dashboard", {}, SLOW)).toBeTruthy();
  });
});

describe("district dashboard", () => {
  it("shows the school count, the school filter and all four cards", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1, 2] }));
    mockDashboardApi();
    renderApp("/dashboard?cohort=all");
    expect(await screen.findByRole("heading", { name: "District Dashboard" }, SLOW)).toBeTruthy();
    expect(screen.getByText("2 Schools Overview")).toBeTruthy();
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    expect(screen.getByRole("combobox", { name: "School" })).toBeTruthy();
    expect(statValue("Total Schools")).toBe("2");
  });

  it("shows the notice without schools", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [] }));
    mockDashboardApi();
    renderApp("/dashboard");
    expect(await screen.findByText(/You currently don't have access to any schools/, {}, SLOW)).toBeTruthy();
    expect(within(screen.getByTestId("no-schools-notice")).getByRole("button", { name: "Logout" })).toBeTruthy();
    expect(screen.queryByText(/Students \(/)).toBeNull();
  });

  it("refuses a non-district user", async () => {
    const user = buildUser({ role: "admin" });
    signIn(user);
    const { DistrictDashboard } = await import("./district-dashboard");
    renderApp("/x", [{ path: "/x", element: <DistrictDashboard user={user} /> }]);
    expect(await screen.findByText("You do not have permission to view this dashboard", {}, SLOW)).toBeTruthy();
  });
});

describe("the Export button", () => {
  it("is always there for admins, whatever the toggles", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockDashboardApi({
      features: { data: { enableExport: false, enableStudentEditing: false, applyToAllSchools: true, schoolSettings: {} }, effective: { school_id: null, enableExport: false, enableStudentEditing: false } },
    });
    renderApp("/dashboard");
    expect(await screen.findByRole("button", { name: "Export" }, SLOW)).toBeTruthy();
    expect(callsTo(fetchMock, "/settings/features")).toHaveLength(0);
  });
});

/** A GET /settings/features reply resolving school 2's export toggle. */
const schoolTwoFeatures = (enableExport: boolean) => ({
  data: { enableExport, enableStudentEditing: true, applyToAllSchools: false, schoolSettings: {} },
  effective: { school_id: 2, enableExport, enableStudentEditing: true },
});

describe("school dashboard", () => {
  it("uses the looked-up school name, hides the school filter and Total Schools", async () => {
    signIn(buildUser({ role: "school_user", school_id: 2, school_name: "Old Name" }));
    mockDashboardApi();
    renderApp("/school/2/dashboard");
    expect(await screen.findByRole("heading", { name: "South High Dashboard" }, SLOW)).toBeTruthy();
    expect(screen.getByText("Student and Attendance Overview")).toBeTruthy();
    await screen.findByRole("heading", { name: /Students \(/ }, SLOW);
    expect(screen.queryByRole("combobox", { name: "School" })).toBeNull();
    expect(statValue("Total Schools")).toBeNull();
    expect(statValue("Total Students")).not.toBeNull();
  });

  it("falls back to the demo school name when the lookup fails or finds nothing", async () => {
    signIn(buildUser({ role: "school_user", school_id: 2 }));
    mockDashboardApi({ failing: ["/schools"] });
    const first = renderApp("/school/2/dashboard");
    expect(await screen.findByRole("heading", { name: "Demo High School Dashboard" }, SLOW)).toBeTruthy();
    await screen.findByRole("heading", { name: /Students \(/ }, SLOW);
    first.unmount();

    signIn(buildUser({ role: "school_user", school_id: 77 }));
    mockDashboardApi();
    renderApp("/school/77/dashboard");
    expect(await screen.findByRole("heading", { name: "Demo High School Dashboard" }, SLOW)).toBeTruthy();
  });

  it("shows the Export button per the school's enableExport, and when the check fails", async () => {
    signIn(buildUser({ role: "school_user", school_id: 2 }));
    const on = mockDashboardApi({ features: schoolTwoFeatures(true) });
    const first = renderApp("/school/2/dashboard");
    expect(await screen.findByRole("button", { name: "Export" }, SLOW)).toBeTruthy();
    expect(callsTo(on, "/settings/features")[0]!.get("school_id")).toBe("2");
    first.unmount();

    mockDashboardApi({ features: schoolTwoFeatures(false) });
    const second = renderApp("/school/2/dashboard");
    await screen.findByRole("heading", { name: /Students \(/ }, SLOW);
    expect(screen.queryByRole("button", { name: "Export" })).toBeNull();
    second.unmount();

    // No /settings/features reply: the spec's "export allowed if the check fails".
    mockDashboardApi();
    renderApp("/school/2/dashboard");
    expect(await screen.findByRole("button", { name: "Export" }, SLOW)).toBeTruthy();
  });

  it("refuses a user without rights to the school", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1] }));
    mockDashboardApi();
    const { SchoolDashboardPage } = await import("./school-dashboard-page");
    renderApp("/school/1/dashboard", [{ path: "/school/:schoolId/dashboard", element: <SchoolDashboardPage /> }]);
    expect(await screen.findByText("You do not have permission to view this school's data", {}, SLOW)).toBeTruthy();
  });
});
