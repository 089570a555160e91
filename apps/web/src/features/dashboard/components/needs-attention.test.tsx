import type { AlertSummary, StudentAlerts, StudentDetail } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildAlert } from "../../../testing/fake-alerts-api";
import { type DashboardWorld, callsTo, mockDashboardApi } from "../../../testing/fake-dashboard-api";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";

const SLOW = { timeout: 10000 };

const SUMMARY: AlertSummary = {
  byState: { open: 5, acknowledged: 2, resolved: 1, dismissed: 0 },
  bySeverity: { urgent: 3, warning: 4, info: 0 },
  total: 7,
  studentIds: [2, 4],
};

const STUDENT: StudentDetail = {
  id: 2,
  first_name: "Student2",
  last_name: "Tester",
  email: null,
  school_id: 1,
  school_name: "North High",
  benefit_assignment_id: null,
  currentCohort: { id: 10, name: "Spring 2025", start_date: "2025-01-06", end_date: "2025-05-30" },
  activeTeam: null,
  previousTeams: [],
  cohorts: [{ id: 10, name: "Spring 2025", start_date: "2025-01-06", end_date: "2025-05-30" }],
};

function record(id: number, week: number, type: "mentor" | "advisor", status: "present" | "late" | "absent", excused = false) {
  return { id, cohort_id: 10, week_number: week, date: `2025-01-${10 + week}`, meeting_type: type, status, excused, formatted_week: `Week ${week}` };
}

/** The dashboard's fake API plus the alert routes, recording each action's path and body. */
function mockWithAlerts(world: DashboardWorld = {}) {
  const attendance = {
    2: {
      data: [record(1, 1, "mentor", "absent"), record(2, 1, "advisor", "absent", true), record(3, 2, "mentor", "present"), record(4, 3, "mentor", "late")],
      weeks: [],
    },
  };
  const dashboard = mockDashboardApi({ details: { 2: STUDENT }, attendance, ...world });
  const actions: Array<{ path: string; body: unknown }> = [];
  const alerts: StudentAlerts = {
    data: [
      {
        ...buildAlert(1, { studentId: 2, studentName: "Student2 Tester", rule: "consecutive_misses", severity: "urgent" }),
        timeline: [{ at: "2025-03-10T09:00:00.000Z", kind: "opened", userId: null, userName: null, note: "2 in a row" }],
      },
    ],
    noteWeeks: [{ cohortId: 10, week: 2, at: "2025-01-15T10:00:00.000Z" }],
  };
  const fetchMock = mockFetch((url, init) => {
    const path = new URL(url, "http://test").pathname;
    if (path === "/api/alerts/summary") return jsonResponse(200, SUMMARY);
    if (path === "/api/students/2/alerts") return jsonResponse(200, alerts);
    const action = /^\/api\/alerts\/(\d+)\/(\w+)$/.exec(path);
    if (action && init.method === "POST") {
      const body = init.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      actions.push({ path, body });
      const a = alerts.data[0]!;
      if (action[2] === "acknowledge") a.state = "acknowledged";
      if (action[2] === "assign") a.assigneeId = (body as { userId: number | null }).userId;
      if (action[2] === "resolve") {
        a.state = "resolved";
        a.timeline.push({ at: "2025-03-12T09:00:00.000Z", kind: "resolved", userId: 1, userName: "admin-user", note: (body as { note: string }).note });
      }
      return jsonResponse(200, a);
    }
    return dashboard(url, init);
  });
  return { fetchMock, actions };
}

afterEach(() => vi.unstubAllGlobals());

describe("Needs attention on the dashboard", () => {
  it("shows the open alerts under the filters on a card that opens the list with those filters, and marks the students", async () => {
    signIn(buildUser({ role: "admin" }));
    const { fetchMock } = mockWithAlerts();
    renderApp("/dashboard?school=1&cohort=10");
    const card = await screen.findByRole("link", { name: /^Needs attention\s*7\s*Open the list$/ }, SLOW);
    expect(card.getAttribute("href")).toBe("/alerts?schoolId=1&cohortId=10");
    const asked = callsTo(fetchMock, "/alerts/summary").at(-1)!;
    expect([asked.get("schoolId"), asked.get("cohortId")]).toEqual(["1", "10"]);
    const marked = await screen.findAllByTestId("needs-attention-mark", {}, SLOW);
    // Icon and words, not colour alone; only the students the summary names.
    const names = marked.map((m) => m.closest("article")?.getAttribute("aria-label"));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(["Student2 Tester", "Student4 Tester"]).toContain(name);
    expect(marked[0]!.textContent).toBe("⚑Needs attention");
  });

  it("follows the search like every other figure: the card counts, marks and opens the list with it (issue 41)", async () => {
    signIn(buildUser({ role: "admin" }));
    const dashboard = mockDashboardApi();
    // The server's summary of the search: one alert, of Student2.
    const fetchMock = mockFetch((url, init) => {
      const parsed = new URL(url, "http://test");
      if (parsed.pathname === "/api/alerts/summary") {
        return jsonResponse(200, parsed.searchParams.get("q") === "Student2" ? { ...SUMMARY, total: 1, studentIds: [2] } : SUMMARY);
      }
      return dashboard(url, init);
    });
    renderApp("/dashboard?school=2&cohort=12&q=Student2");
    const card = await screen.findByRole("link", { name: /^Needs attention\s*1\s*Open the list$/ }, SLOW);
    expect(card.getAttribute("href")).toBe("/alerts?schoolId=2&cohortId=12&q=Student2");
    expect(callsTo(fetchMock, "/alerts/summary").map((p) => p.get("q"))).toEqual(["Student2"]);
    expect(screen.getByTestId("search-scope").textContent).toContain("Student2");
    const marked = await screen.findAllByTestId("needs-attention-mark", {}, SLOW);
    expect(marked.map((m) => m.closest("article")?.getAttribute("aria-label"))).toEqual(["Student2 Tester"]);
  });

  it("opens a linked student on the Follow-up tab; take the alert, acknowledge, and resolve only with a note", async () => {
    const me = buildUser({ role: "school_user", school_id: 1, school_name: "North High" });
    signIn(me);
    const { actions } = mockWithAlerts();
    renderApp("/school/1/dashboard?student=2&tab=follow-up");
    const dialog = await screen.findByRole("dialog", {}, SLOW);
    const alert = await within(dialog).findByTestId("follow-up-alert", {}, SLOW);
    expect(within(dialog).getByRole("tab", { name: "Follow-up" }).getAttribute("aria-selected")).toBe("true");
    expect(within(alert).getByText(/Missed 2 meetings in a row/)).toBeTruthy();
    expect(within(alert).getByTestId("severity").textContent).toContain("Urgent");
    expect(within(alert).getByText(/Raised — “2 in a row”/)).toBeTruthy();
    // Non-admins cannot list the staff: they take the alert themselves, and can give it back.
    expect(within(alert).queryByRole("button", { name: "Assign…" })).toBeNull();
    fireEvent.click(within(alert).getByRole("button", { name: "Assign to me" }));
    expect(await within(dialog).findByRole("button", { name: "Unassign me" }, SLOW)).toBeTruthy();
    expect(actions.shift()).toEqual({ path: "/api/alerts/1/assign", body: { userId: me.id } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Unassign me" }));
    expect(await within(dialog).findByRole("button", { name: "Assign to me" }, SLOW)).toBeTruthy();
    expect(actions.shift()).toEqual({ path: "/api/alerts/1/assign", body: { userId: null } });

    fireEvent.click(within(dialog).getByRole("button", { name: "Acknowledge" }));
    await waitFor(() => expect(within(dialog).getByTestId("alert-state").textContent).toBe("Acknowledged"));
    expect(actions[0]).toEqual({ path: "/api/alerts/1/acknowledge", body: {} });

    fireEvent.click(within(dialog).getByRole("button", { name: "Resolve…" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    expect(await within(dialog).findByText("A note is required to resolve an alert.")).toBeTruthy();
    expect(actions).toHaveLength(1);
    fireEvent.change(within(dialog).getByLabelText(/Resolution note/), { target: { value: "Called the family" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    await waitFor(() => expect(within(dialog).getByTestId("alert-state").textContent).toBe("Resolved"));
    expect(actions[1]).toEqual({ path: "/api/alerts/1/resolve", body: { note: "Called the family" } });
    expect(within(dialog).getByText(/Resolved by admin-user — “Called the family”/)).toBeTruthy();
  });

  it("shows the student's meetings by week on the Attendance tab, marking the weeks with a follow-up note", async () => {
    signIn(buildUser({ role: "admin" }));
    mockWithAlerts();
    renderApp("/dashboard?student=2&tab=attendance");
    const dialog = await screen.findByRole("dialog", {}, SLOW);
    fireEvent.click(await within(dialog).findByRole("radio", { name: "By week" }, SLOW));
    await within(dialog).findByTestId("note-week-mark", {}, SLOW);
    const weeks = within(dialog).getAllByTestId("attendance-week");
    expect(weeks.map((w) => [...w.querySelectorAll("td")].map((td) => td.textContent))).toEqual([
      ["Week 1", "Absent", "Absent (excused)", ""],
      ["Week 2", "Present", "No meeting", "✎ Follow-up note"],
      ["Week 3", "Late", "No meeting", ""],
    ]);
  });
});
