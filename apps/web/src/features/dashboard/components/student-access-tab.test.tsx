import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { getStudentAccessLog } from "../api/get-student-access-log";
import { accessLogCsv, StudentAccessTab } from "./student-access-tab";

const ENTRIES = [
  { at: "2026-03-02T10:00:00.000Z", userId: 7, username: "=cmd|' /C calc'!A0", role: "school_user", address: "10.0.0.7", action: "view" },
  { at: "2026-03-01T09:00:00.000Z", userId: 2, username: "ann", role: "admin", address: null, action: "email", recipient: "funder@example.test" },
] as const;

function render() {
  renderApp("/x", [{ path: "/x", element: <StudentAccessTab studentId={42} /> }]);
}

describe("the student detail's Access tab", () => {
  it("lists who viewed or exported the student, newest first as the server answers", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, { data: ENTRIES, total: 2 }));
    render();
    expect(await screen.findByText("2 entries, newest first")).toBeTruthy();
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows[0]?.textContent).toContain("School User");
    expect(rows[0]?.textContent).toContain("Viewed");
    expect(rows[1]?.textContent).toContain("E-mailed report");
    expect(rows[1]?.textContent).toContain("funder@example.test");
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain("/api/students/42/access-log?limit=25&offset=0");
  });

  it("sends the chosen action and days as filters", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, { data: [], total: 0 }));
    render();
    expect(await screen.findByText(/Nobody has viewed or exported/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-03-01" } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes("from=2026-03-01"))).toBe(true));
  });

  it("writes the CSV formula-safe, times in UTC", () => {
    const csv = accessLogCsv(ENTRIES);
    expect(csv.split("\r\n")[0]).toBe("Time (UTC),User,Role,Address,Action,Recipient");
    // The apostrophe keeps a spreadsheet from running the cell as a formula.
    expect(csv).toContain("2026-03-02T10:00:00.000Z,'=cmd|' /C calc'!A0,School User,10.0.0.7,Viewed,");
    expect(csv).toContain("ann,Admin,,E-mailed report,funder@example.test");
  });
});

describeSessionRefresh(() => getStudentAccessLog(42, { action: "", from: "", to: "" }, { limit: 25, offset: 0 }));
