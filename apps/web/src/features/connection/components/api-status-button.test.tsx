import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { healthStore } from "../../../lib/health";
import { ApiStatusButton } from "./api-status-button";
import { renderWithProviders } from "../../../testing/render-app";

function renderButton() {
  return renderWithProviders(<ApiStatusButton />);
}

describe("floating API status button", () => {
  it("has a clear name, and its tooltip shows on keyboard focus with message, last check and URL", async () => {
    renderButton();
    const button = screen.getByRole("button", { name: "API status: online. Check the connection now" });
    act(() => button.focus());
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip.textContent).toContain("Connected to the API server");
    expect(tooltip.textContent).toContain("Last checked: not yet");
    expect(tooltip.textContent).toContain(`Health check: ${window.location.origin}/api/health-check`);
    expect(button.getAttribute("aria-describedby")).toBe(tooltip.id);
  });

  it("shows the tooltip on hover too", async () => {
    renderButton();
    fireEvent.mouseEnter(screen.getByTestId("api-status-button"));
    expect(await screen.findByRole("tooltip")).toBeTruthy();
  });

  it("announces a change of state in a polite live region", () => {
    renderButton();
    const live = screen.getByTestId("api-status-live");
    expect(live.getAttribute("aria-live")).toBe("polite");
    expect(live.getAttribute("role")).toBe("status");
    expect(live.textContent).toBe("Connected to the API server");
    act(() => healthStore.setOffline("Your device is offline"));
    expect(live.textContent).toBe("API offline: Your device is offline");
    expect(screen.getByRole("button", { name: "API status: offline. Check the connection now" })).toBeTruthy();
  });

  it("runs a health check when clicked and shows when it was checked", async () => {
    const fetchMock = vi.fn(async () => Response.json({ status: "ok" }, { status: 500 }));
    vi.stubGlobal("fetch", fetchMock);
    renderButton();
    const button = screen.getByTestId("api-status-button");
    fireEvent.click(button);
    await vi.waitFor(() => expect(healthStore.get().isOnline).toBe(false));
    expect(fetchMock).toHaveBeenCalledWith("/api/health-check", expect.objectContaining({ credentials: "omit" }));
    act(() => button.focus());
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip.textContent).toContain("API server is experiencing issues");
    expect(tooltip.textContent).toContain(
      `Last checked: ${new Date(healthStore.get().lastChecked as string).toLocaleTimeString()}`,
    );
  });
});
