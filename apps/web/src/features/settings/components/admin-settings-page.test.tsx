import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp, renderWithProviders } from "../../../testing/render-app";
import { AdminSettingsPage } from "./admin-settings-page";

describe("Admin Settings page", () => {
  it("shows Loading settings... and then the seven sections, schools and cohorts first (users live on /users)", async () => {
    signIn(buildUser({ role: "admin" }));
    let answer: ((r: Response) => void) | undefined;
    mockFetch((url) =>
      url.startsWith("/api/cohorts")
        ? (new Promise<Response>((resolve) => {
            answer = resolve;
          }) as unknown as Response)
        : jsonResponse(200, { data: [] }),
    );
    renderApp("/admin/settings");
    expect(await screen.findByText("Loading settings...")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Admin Settings" })).toBeTruthy();
    answer?.(jsonResponse(200, { data: [] }));
    expect(await screen.findByRole("heading", { name: "System Settings" })).toBeTruthy();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent?.replace(/^[▸▾]\s*/, ""));
    expect(headings).toEqual([
      "Cohort & Weekly Data Management",
      "System Settings",
      "School Data Visibility",
      "Demo school settings",
      "School Feature Settings",
      "Privacy and retention",
      "Alert Rules",
    ]);
    expect((screen.getByRole("button", { name: "Import Weekly Data for Cohort" }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole("button", { name: /User Management/ })).toBeNull();
    expect(screen.getByRole("region", { name: "Schools and cohorts" }).id).toBe("schools-and-cohorts");
  });

  it("offers Retry when the settings data fails to load", async () => {
    signIn(buildUser({ role: "admin" }));
    let fail = true;
    mockFetch(() => (fail ? jsonResponse(500, {}) : jsonResponse(200, { data: [] })));
    renderApp("/admin/settings");
    expect(await screen.findByText("Failed to load settings data. Please try again.")).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("heading", { name: "System Settings" })).toBeTruthy();
  });

  it("refuses other roles", () => {
    signIn(buildUser({ role: "district_user" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    renderWithProviders(<AdminSettingsPage />);
    expect(screen.getByText("You do not have permission to access admin settings")).toBeTruthy();
  });
});
