import type { LoginLogRow } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, mockUsersApi } from "../../../testing/fake-users-api";

const CHROME_WIN =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

function logs(): LoginLogRow[] {
  return Array.from({ length: 23 }, (_, i) => ({
    id: 100 - i,
    created_at: new Date(Date.UTC(2025, 2, 23 - i, 9)).toISOString(),
    login_method: i === 2 ? "oidc" : i % 2 ? "email" : "username",
    provider: i === 2 ? "google" : null,
    ip_address: "10.0.0.1",
    user_agent: i === 0 ? CHROME_WIN : i === 1 ? "=HYPERLINK(\"http://evil\",\"x\")" : null,
    successful: i % 3 !== 0,
    failure_reason: i % 3 !== 0 ? null : i === 3 ? "wrong_password" : "Invalid credentials",
  }));
}

async function openHistory() {
  const row = await screen.findByTestId("user-row-oak");
  fireEvent.click(within(row).getByRole("button", { name: "Login history of oak" }));
  return screen.findByRole("dialog", { name: "Login History: oak" });
}

describe("Login History modal", () => {
  it("shows ten attempts a page with a browser label, and filters by status", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    const fetchMock = mockUsersApi({ users: [buildListUser({ id: 3, username: "oak" })], logs: logs() });
    renderApp("/users");
    const dialog = await openHistory();
    const table = await within(dialog).findByRole("table", { name: "Login history of oak" });
    const headers = within(table).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Date/Time", "Method", "IP Address", "Browser", "Status", "Failure Reason"]);
    expect(within(table).getAllByRole("row")).toHaveLength(11);
    expect(within(table).getByText("Chrome on Windows")).toBeTruthy();
    // The stored code in words, never the code.
    expect(within(table).getByText("Wrong password")).toBeTruthy();
    expect(within(table).queryByText("wrong_password")).toBeNull();
    expect(within(table).getByText("SSO (google)")).toBeTruthy();
    expect(within(dialog).getByText("Showing 1-10 of 23")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Page 3" }));
    expect(await within(dialog).findByText("Showing 21-23 of 23")).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Status"), { target: { value: "failed" } });
    expect(await within(dialog).findByText("Showing 1-8 of 8")).toBeTruthy();
    const last = String(fetchMock.mock.calls.at(-1)![0]);
    expect(last).toContain("successful=false");
    expect(last).toContain("offset=0");
  });

  it("exports every filtered row as a neutralised CSV named after the user and the day", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    const fetchMock = mockUsersApi({ users: [buildListUser({ id: 3, username: "oak" })], logs: logs() });
    let blob: Blob | undefined;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blob = b as Blob;
      return "blob:csv";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderApp("/users");
    const dialog = await openHistory();
    await within(dialog).findByText("Showing 1-10 of 23");
    fireEvent.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
    expect(clicks[0]).toBe(`login_history_oak_${day}.csv`);
    const text = await blob!.text();
    const lines = text.split("\r\n");
    expect(lines).toHaveLength(25);
    expect(lines[1]).toMatch(/^100,2025-03-23T09:00:00.000Z,username,10.0.0.1,Chrome on Windows,"Mozilla/);
    expect(lines[2]).toContain(`'=HYPERLINK(""http://evil"",""x"")`);
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes("limit=100"))).toBe(true);
  });

  it("shows the failure text", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    mockUsersApi({
      users: [buildListUser({ id: 3, username: "oak" })],
      overrides: { "GET /users/3/login-logs": () => jsonResponse(500, {}) },
    });
    renderApp("/users");
    const dialog = await openHistory();
    expect(await within(dialog).findByText("Failed to load login history. Please try again.")).toBeTruthy();
  });
});
