import { fireEvent, screen, waitFor } from "@testing-library/react";
import { PRIVACY_MESSAGES } from "@tally/contract";
import { describe, expect, it, vi } from "vitest";
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

/** Catches what saveFile hands the browser: the name and the bytes of each download. */
function catchDownloads() {
  const saved: Array<{ name: string; blob: Blob }> = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    const url = `blob:${blobs.size}`;
    blobs.set(url, b as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute("href") ?? "") as Blob });
  });
  return saved;
}

describe("the Access tab's student export", () => {
  it("downloads the student's ZIP under the server's name, then reloads the record that now lists it", async () => {
    signIn(buildUser({ role: "admin" }));
    const saved = catchDownloads();
    const fetchMock = mockFetch((url) =>
      url.startsWith("/api/students/42/export")
        ? new Response("PK zip bytes", {
            status: 200,
            headers: { "Content-Type": "application/zip", "Content-Disposition": 'attachment; filename="Student-export-Zoe-Quill-2026-03-02.zip"' },
          })
        : jsonResponse(200, { data: ENTRIES, total: 2 }),
    );
    render();
    expect(await screen.findByText("2 entries, newest first")).toBeTruthy();
    const logCalls = () => fetchMock.mock.calls.filter(([u]) => String(u).includes("/access-log")).length;
    const before = logCalls();
    fireEvent.click(screen.getByRole("button", { name: "Export student's data" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe("Student-export-Zoe-Quill-2026-03-02.zip");
    expect(await saved[0]?.blob.text()).toBe("PK zip bytes");
    const exportCall = fetchMock.mock.calls.find(([u]) => String(u).includes("/export"));
    expect(String(exportCall?.[0])).toMatch(/\/api\/students\/42\/export$/);
    await waitFor(() => expect(logCalls()).toBeGreaterThan(before));
  });

  it("shows the server's reason when the export is refused", async () => {
    signIn(buildUser({ role: "admin" }));
    const saved = catchDownloads();
    mockFetch((url) =>
      url.startsWith("/api/students/42/export")
        ? jsonResponse(403, { error: PRIVACY_MESSAGES.exportsBlocked, code: "FORBIDDEN" })
        : jsonResponse(200, { data: ENTRIES, total: 2 }),
    );
    render();
    fireEvent.click(await screen.findByRole("button", { name: "Export student's data" }));
    expect(await screen.findByText(PRIVACY_MESSAGES.exportsBlocked)).toBeTruthy();
    expect(saved).toHaveLength(0);
  });
});

describeSessionRefresh(() => getStudentAccessLog(42, { action: "", from: "", to: "" }, { limit: 25, offset: 0 }));
