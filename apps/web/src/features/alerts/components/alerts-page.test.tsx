import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildAlert } from "../../../testing/fake-alerts-api";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";

const ALERTS = Array.from({ length: 60 }, (_, i) => buildAlert(i + 1));

/** A fake alerts API filtering by rule and search and paging as the server does; records bulk bodies. */
function mockAlertsApi(exportAtSchool = true) {
  const bulkBodies: unknown[] = [];
  const fetchMock = mockFetch((url, init) => {
    const parsed = new URL(url, "http://test");
    const p = parsed.searchParams;
    if (parsed.pathname === "/api/settings/features") {
      return jsonResponse(200, { effective: { enableExport: exportAtSchool, enableStudentEditing: true } });
    }
    if (parsed.pathname === "/api/alerts/bulk") {
      const body = JSON.parse(String(init.body)) as { ids: number[] };
      bulkBodies.push(body);
      for (const id of body.ids) {
        const a = ALERTS.find((x) => x.id === id);
        if (a) a.state = "acknowledged";
      }
      return jsonResponse(200, { updated: body.ids.length, skipped: [] });
    }
    if (parsed.pathname === "/api/alerts") {
      const q = (p.get("q") ?? "").toLowerCase();
      const rows = ALERTS.filter((a) => (!p.get("rule") || a.rule === p.get("rule")) && a.studentName.toLowerCase().includes(q));
      const page = Number(p.get("page") ?? 1);
      const size = Number(p.get("pageSize") ?? 50);
      return jsonResponse(200, { data: rows.slice((page - 1) * size, page * size), total: rows.length });
    }
    if (parsed.pathname === "/api/schools") return jsonResponse(200, { data: [{ id: 1, name: "North High", district: "D1" }] });
    return jsonResponse(200, { data: [] });
  });
  return { fetchMock, bulkBodies };
}

const alertCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .map((c) => new URL(String(c[0]).replace(/^https?:\/\/[^/]+/, ""), "http://test"))
    .filter((u) => u.pathname === "/api/alerts");

afterEach(() => vi.unstubAllGlobals());

describe("Needs attention (/alerts)", () => {
  it("lists the alerts with rule in words and severity as text, keeps a filter in the URL, and pages", async () => {
    signIn(buildUser({ role: "admin" }));
    const { fetchMock } = mockAlertsApi();
    const { router } = renderApp("/alerts?rule=flags");
    expect(await screen.findByRole("heading", { level: 1, name: "Needs attention" })).toBeTruthy();
    const rows = await screen.findAllByTestId("alert-row");
    expect(rows).toHaveLength(20);
    expect(within(rows[0]!).getAllByText("Flags").length).toBeGreaterThan(0);
    // Severity in words, not colour alone.
    expect(within(rows[0]!).getByTestId("severity").textContent).toMatch(/Urgent|Warning|Info/);
    expect(alertCalls(fetchMock).at(-1)!.searchParams.get("rule")).toBe("flags");

    fireEvent.change(screen.getByLabelText("Rule"), { target: { value: "" } });
    await waitFor(() => expect(screen.getAllByTestId("alert-row")).toHaveLength(50));
    expect(router.state.location.search).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await waitFor(() => expect(router.state.location.search).toBe("?page=2"));
    await waitFor(() => expect(screen.getAllByTestId("alert-row")).toHaveLength(10));
    expect(alertCalls(fetchMock).at(-1)!.searchParams.get("page")).toBe("2");
  });

  it("keeps to the students the search finds, from the dashboard card's link or the header, as the dashboard does (issue 41)", async () => {
    signIn(buildUser({ role: "admin" }));
    const { fetchMock } = mockAlertsApi();
    const { router } = renderApp("/alerts?cohortId=10&q=Student1");
    // Student1 and Student10 to Student19.
    await waitFor(() => expect(screen.getAllByTestId("alert-row")).toHaveLength(11));
    expect(alertCalls(fetchMock).at(-1)!.searchParams.get("q")).toBe("Student1");
    expect(screen.getByTestId("search-scope").textContent).toBe("Only the students matching “Student1”.");
    const search = screen.getByRole("searchbox", { name: "Search" }) as HTMLInputElement;
    expect(search.value).toBe("Student1");
    // A filter chosen here keeps the search.
    fireEvent.change(screen.getByLabelText("Rule"), { target: { value: "flags" } });
    await waitFor(() => expect(router.state.location.search).toBe("?cohortId=10&rule=flags&q=Student1"));
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(router.state.location.search).toBe("?q=Student1"));

    // Typed in the header: the list asks once, and starts again at its first page.
    await act(() => router.navigate("/alerts?page=2"));
    await waitFor(() => expect(screen.getAllByTestId("alert-row")).toHaveLength(10));
    fireEvent.change(search, { target: { value: "Student3" } });
    await waitFor(() => expect(router.state.location.search).toBe("?q=Student3"));
    await waitFor(() => expect(screen.getAllByTestId("alert-row")).toHaveLength(11));
    const asked = alertCalls(fetchMock).at(-1)!.searchParams;
    expect([asked.get("q"), asked.get("page")]).toEqual(["Student3", "1"]);
  });

  it("acknowledges the selected alerts in one bulk call; a row's student opens on the Follow-up tab", async () => {
    signIn(buildUser({ role: "admin" }));
    const { bulkBodies } = mockAlertsApi();
    renderApp("/alerts");
    await screen.findAllByTestId("alert-row");
    const button = screen.getByRole("button", { name: /Acknowledge selected/ });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: /^Select Student1 Tester/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: /^Select Student3 Tester/ }));
    fireEvent.click(screen.getByRole("button", { name: "Acknowledge selected (2)" }));
    await screen.findByText("2 acknowledged.");
    expect(bulkBodies).toEqual([{ ids: [1, 3], action: "acknowledge" }]);
    const link = screen.getByRole("link", { name: "Student1 Tester" });
    expect(link.getAttribute("href")).toBe("/dashboard?student=101&tab=follow-up");
  });

  it("sends a school user's student links to their own school's dashboard and hides the school filter", async () => {
    signIn(buildUser({ role: "school_user", school_id: 1 }));
    mockAlertsApi();
    renderApp("/alerts");
    await screen.findAllByTestId("alert-row");
    expect(screen.queryByLabelText("School")).toBeNull();
    expect(screen.getByRole("link", { name: "Student1 Tester" }).getAttribute("href")).toBe(
      "/school/1/dashboard?student=101&tab=follow-up",
    );
  });

  it("offers the CSV to a school user only where their school's export setting is on, as the dashboard's Export menu", async () => {
    signIn(buildUser({ role: "school_user", school_id: 1 }));
    mockAlertsApi(false);
    const first = renderApp("/alerts");
    await screen.findAllByTestId("alert-row");
    expect(screen.queryByRole("button", { name: "Download CSV" })).toBeNull();
    first.unmount();

    mockAlertsApi(true);
    renderApp("/alerts");
    expect(await screen.findByRole("button", { name: "Download CSV" })).toBeTruthy();
  });
});
