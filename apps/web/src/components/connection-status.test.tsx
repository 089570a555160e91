import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { HEALTH_MESSAGES, healthStore } from "../lib/health";
import { renderWithProviders } from "../testing/render-app";
import { buildUser, signIn } from "../testing/signed-in-user";
import { ConnectionStatus } from "./connection-status";
import { SlimPage } from "./slim-page";

const offline = () => act(() => healthStore.setOffline(HEALTH_MESSAGES.unreachable));

describe("the connection status in the header", () => {
  it("shows nothing while the API answers, and no longer floats over the page", () => {
    renderWithProviders(
      <SlimPage width={440}>
        <p>Sign in</p>
      </SlimPage>,
    );
    expect(screen.queryByTestId("api-status-button")).toBeNull();
    expect(screen.getByTestId("api-status-live").textContent).toBe(HEALTH_MESSAGES.online);

    offline();
    const button = screen.getByRole("button", { name: "Offline: check the connection again" });
    // In the header's flow: never position: fixed over the page's own controls.
    expect(button.closest("header")).not.toBeNull();
    for (let el: HTMLElement | null = button; el; el = el.parentElement) expect(el.style.position).not.toBe("fixed");
  });

  it("says Offline or Server issues in words, and announces the change politely", () => {
    renderWithProviders(<ConnectionStatus />);
    const live = screen.getByTestId("api-status-live");
    expect(live.getAttribute("role")).toBe("status");
    expect(live.getAttribute("aria-live")).toBe("polite");

    offline();
    expect(screen.getByTestId("api-status-button").textContent).toBe("Offline");
    expect(live.textContent).toBe("API offline: Cannot connect to the API server");

    act(() => healthStore.setOffline(HEALTH_MESSAGES.serverError));
    expect(screen.getByRole("button", { name: "Server issues: check the connection again" }).textContent).toBe("Server issues");
    expect(live.textContent).toBe("API offline: API server is experiencing issues");
  });

  it("shows a coordinator the message and last check on keyboard focus, but no address", async () => {
    signIn(buildUser({ role: "school_user" }));
    renderWithProviders(<ConnectionStatus />);
    offline();
    const button = screen.getByTestId("api-status-button");
    act(() => button.focus());
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip.textContent).toContain("Cannot connect to the API server");
    expect(tooltip.textContent).toContain("Last checked: not yet");
    expect(tooltip.textContent).not.toContain("Health check");
    expect(tooltip.textContent).not.toContain("/api/");
    expect(button.getAttribute("aria-describedby")).toBe(tooltip.id);
  });

  it("shows an admin the health-check address", async () => {
    signIn(buildUser({ role: "admin" }));
    renderWithProviders(<ConnectionStatus />);
    offline();
    act(() => screen.getByTestId("api-status-button").focus());
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip.textContent).toContain(`Health check: ${window.location.origin}/api/health-check`);
  });

  it("checks again when pressed, and goes away once the API answers", async () => {
    const fetchMock = vi.fn(async () => Response.json({ status: "ok" }, { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    renderWithProviders(<ConnectionStatus />);
    offline();
    fireEvent.click(screen.getByTestId("api-status-button"));
    expect(fetchMock).toHaveBeenCalledWith("/api/health-check", expect.objectContaining({ credentials: "omit" }));
    await vi.waitFor(() => expect(healthStore.get().isOnline).toBe(true));
    expect(screen.queryByTestId("api-status-button")).toBeNull();
    expect(screen.getByTestId("api-status-live").textContent).toBe(HEALTH_MESSAGES.online);
  });
});
