import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authStore } from "../../../lib/auth-store";
import { healthStore } from "../../../lib/health";
import { hardNavigation } from "../../../lib/hard-navigation";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

const SYNCED = "2026-11-25T09:30:00.000Z";

beforeEach(() => {
  signIn(buildUser({ role: "admin" }));
  vi.spyOn(hardNavigation, "reload").mockImplementation(() => undefined);
});

describe("Server Connection Error page (spec 'Other screens')", () => {
  it("replaces the app while offline, with the spec's texts and the last sync time", async () => {
    localStorage.setItem("lastSyncTime", SYNCED);
    mockFetch(() => jsonResponse(200, { supportEmail: "help@school.example" }));
    healthStore.setOffline("Cannot connect to the API server");
    renderApp("/dashboard");
    expect(await screen.findByRole("heading", { level: 1, name: "Server Connection Error" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Admin Dashboard" })).toBeNull();
    expect(screen.getByText("Cannot connect to the API server")).toBeTruthy();
    expect(screen.getByText("Server maintenance")).toBeTruthy();
    expect(screen.getByText("Network connection issues")).toBeTruthy();
    expect(screen.getByTestId("last-synchronized").textContent).toBe(
      `Last synchronized: ${new Date(SYNCED).toLocaleString()}`,
    );
    await vi.waitFor(() =>
      expect(screen.getByTestId("support-contact").textContent).toBe(
        "If the problem persists, please contact support at help@school.example.",
      ),
    );
    expect(screen.getByRole("link", { name: "help@school.example" }).getAttribute("href")).toBe(
      "mailto:help@school.example",
    );
    fireEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(hardNavigation.reload).toHaveBeenCalledTimes(1);
  });

  it("says 'No recent data available' and uses the stored support address when the server cannot be reached", async () => {
    localStorage.setItem("tally.supportEmail", "stored@school.example");
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    healthStore.setOffline("Your device is offline");
    renderApp("/users");
    expect(await screen.findByText("No recent data available")).toBeTruthy();
    expect(screen.getByTestId("support-contact").textContent).toContain("stored@school.example");
  });

  it("falls back to a generic support line when no address was ever fetched", async () => {
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    healthStore.setOffline("Cannot connect to the API server");
    renderApp("/dashboard");
    expect((await screen.findByTestId("support-contact")).textContent).toBe(
      "If the problem persists, please contact your system administrator.",
    );
  });

  it("Return to Login signs this browser out and opens the sign-in page", async () => {
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    healthStore.setOffline("Cannot connect to the API server");
    const { router } = renderApp("/dashboard");
    fireEvent.click(await screen.findByRole("button", { name: "Return to Login" }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(authStore.get().token).toBeNull();
    expect(await screen.findByRole("heading", { name: "Sign in to Tally" })).toBeTruthy();
  });

  it.each(["/login", "/set-password", "/verify", "/debug"])("leaves %s alone while offline", async (path) => {
    authStore.clear();
    mockFetch(() => jsonResponse(400, { error: "bad" }));
    healthStore.setOffline("Cannot connect to the API server");
    renderApp(path);
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("heading", { name: "Server Connection Error" })).toBeNull();
  });

  it("gives the app back once the API answers again", async () => {
    mockFetch(() => jsonResponse(200, { data: [] }));
    healthStore.setOffline("Cannot connect to the API server");
    renderApp("/unauthorized");
    await screen.findByRole("heading", { name: "Server Connection Error" });
    healthStore.reset();
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeTruthy();
  });
});
