import type { AuditEntryView, AuditListResponse } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

function entry(i: number, overrides: Partial<AuditEntryView> = {}): AuditEntryView {
  return {
    id: 1000 - i,
    at: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - i * 60_000).toISOString(),
    actorId: i % 2 ? 7 : 8,
    actorName: i % 2 ? "olive" : "pine",
    clientAddress: "203.0.113.7",
    action: i % 2 ? "user.updated" : "school.created",
    entity: i % 2 ? "user" : "school",
    entityId: String(i),
    entityName: i % 2 ? `user${i}` : null,
    before: i % 2 ? { role: "admin" } : null,
    after: { name: `Item ${i}` },
    ...overrides,
  };
}

const ENTRIES = Array.from({ length: 120 }, (_, i) => entry(i));
const CHOICES: AuditListResponse["choices"] = {
  actors: [
    { id: 7, name: "olive" },
    { id: 8, name: "pine" },
  ],
  actions: ["school.created", "user.updated"],
  entities: ["school", "user"],
};

/** A fake /api/audit that filters by actor and pages like the server. */
function mockAuditApi() {
  return mockFetch((url) => {
    const [pathname, search = ""] = url.split("?");
    const params = new URLSearchParams(search);
    if (pathname === "/api/audit/export.csv") {
      return new Response("\uFEFFTime (UTC),Who\r\n2026-11-20T12:00:00.000Z,'=pine\r\n", { status: 200, headers: { "Content-Type": "text/csv; charset=utf-8" } });
    }
    if (pathname === "/api/audit") {
      const actorId = params.get("actorId");
      const rows = ENTRIES.filter((e) => !actorId || String(e.actorId) === actorId);
      const limit = Number(params.get("limit"));
      const offset = Number(params.get("offset"));
      const names: AuditListResponse["names"] = { schools: { "5": "Oak School" }, cohorts: {} };
      return jsonResponse(200, { rows: rows.slice(offset, offset + limit), count: rows.length, choices: CHOICES, names });
    }
    return jsonResponse(200, { data: [] });
  });
}

describe("Audit Log page (/admin/audit)", () => {
  it("lists entries newest first, 50 a page, with who, address, the action in words, what by name and the changes", async () => {
    signIn(buildUser({ role: "super_admin" }));
    mockAuditApi();
    renderApp("/admin/audit");
    expect(await screen.findByRole("heading", { level: 1, name: "Audit Log" })).toBeTruthy();
    const table = await screen.findByRole("table", { name: "Audit log" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["When", "Who", "Address", "Action", "What", "Changes"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(50);
    expect(within(rows[1]!).getByText("olive")).toBeTruthy();
    expect(within(rows[1]!).getByText("Changed user")).toBeTruthy();
    expect(within(rows[1]!).getByText("User user1")).toBeTruthy();
    expect(within(rows[1]!).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Role: Admin (removed)", "Name: Item 1"]);
    // A school gone since: its kind and id, said so.
    expect(within(rows[0]!).getByText("School 0 (no longer there)")).toBeTruthy();
    expect(within(rows[0]!).getByText("Created school")).toBeTruthy();
    expect(within(rows[1]!).getByText("203.0.113.7")).toBeTruthy();
    expect(screen.getByText("Showing 1-50 of 120")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));
    expect(await screen.findByText("Showing 101-120 of 120")).toBeTruthy();
  });

  it("filters by who, back on the first page, and asks the server with the filter", async () => {
    signIn(buildUser({ role: "super_admin" }));
    const fetchMock = mockAuditApi();
    renderApp("/admin/audit");
    await screen.findByRole("table", { name: "Audit log" });
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await screen.findByText("Showing 51-100 of 120");
    fireEvent.change(screen.getByLabelText("Who"), { target: { value: "7" } });
    expect(await screen.findByText("Showing 1-50 of 60")).toBeTruthy();
    const last = String(fetchMock.mock.calls.at(-1)![0]);
    expect(last).toContain("actorId=7");
    expect(last).toContain("offset=0");
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-11-20" } });
    await waitFor(() => expect(String(fetchMock.mock.calls.at(-1)![0])).toContain("from=2026-11-20"));
  });

  it("refuses an end date before the start date without asking the server", async () => {
    signIn(buildUser({ role: "super_admin" }));
    const fetchMock = mockAuditApi();
    renderApp("/admin/audit");
    await screen.findByRole("table", { name: "Audit log" });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-11-20" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-11-01" } });
    expect(await screen.findByText("The end date must not be before the start date")).toBeTruthy();
    const calls = fetchMock.mock.calls.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchMock.mock.calls.length).toBe(calls);
    expect((screen.getByRole("button", { name: "Export CSV" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("exports the filtered log through the server's CSV, byte order mark kept", async () => {
    signIn(buildUser({ role: "super_admin" }));
    const fetchMock = mockAuditApi();
    let blob: Blob | undefined;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blob = b as Blob;
      return "blob:csv";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    // A real click would send happy-dom's window to the blob: address.
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderApp("/admin/audit");
    await screen.findByRole("table", { name: "Audit log" });
    fireEvent.change(screen.getByLabelText("Action"), { target: { value: "user.updated" } });
    await waitFor(() => expect(String(fetchMock.mock.calls.at(-1)![0])).toContain("action=user.updated"));
    fireEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(saved).toEqual(["audit-log.csv"]));
    const exportCall = fetchMock.mock.calls.map((c) => String(c[0])).find((u) => u.includes("/api/audit/export.csv"));
    expect(exportCall).toContain("action=user.updated");
    const bytes = new Uint8Array(await blob!.arrayBuffer());
    expect(Array.from(bytes.subarray(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain("'=pine");
  });

  it("is refused to an admin", async () => {
    signIn(buildUser({ role: "admin" }));
    mockAuditApi();
    const { router } = renderApp("/admin/audit");
    await screen.findByRole("heading", { name: "Access Denied" });
    expect(router.state.location.pathname).toBe("/unauthorized");
  });
});
