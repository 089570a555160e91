import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { DEMO_SETTINGS_DEFAULTS } from "@tally/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

// The first render of the whole page pays for loading its code.
const SLOW = { timeout: 5_000 };

/** The Admin Settings page with the demo endpoint answering `demo` (or failing) and `onPost` for saves. */
function serve(demo: unknown, onPost: (body: unknown) => Response = (b) => jsonResponse(200, { data: { ...DEMO_SETTINGS_DEFAULTS, ...(b as object) } })) {
  return mockFetch((url, init) => {
    if (url.startsWith("/api/settings/demo")) {
      if (init.method === "POST") return onPost(JSON.parse(String(init.body)));
      return demo === "fail" ? jsonResponse(500, {}) : jsonResponse(200, { data: demo });
    }
    return jsonResponse(200, { data: [] });
  });
}

async function openSection() {
  signIn(buildUser({ role: "admin" }));
  renderApp("/admin/settings");
  const section = await screen.findByRole("region", { name: "Demo school settings" }, SLOW);
  await within(section).findByRole("switch", { name: /Demo school visible/ }, SLOW);
  return section;
}

const toggle = (section: HTMLElement, name: RegExp) => within(section).getByRole("switch", { name }) as HTMLInputElement;

afterEach(() => {
  vi.useRealTimers();
});

describe("Demo school settings", () => {
  it("shows the three labelled switches with the stored values and a link to the demo dashboard", async () => {
    serve(DEMO_SETTINGS_DEFAULTS);
    const section = await openSection();
    expect(toggle(section, /Demo school visible/).checked).toBe(true);
    expect(toggle(section, /Admin access/).checked).toBe(true);
    expect(toggle(section, /School access/).checked).toBe(false);
    expect(within(section).getByRole("link", { name: "Open the demo school dashboard" }).getAttribute("href")).toBe("/school/123/dashboard");
  });

  it("disables the two access switches while the demo is not visible", async () => {
    serve({ ...DEMO_SETTINGS_DEFAULTS, isDemoVisible: false });
    const section = await openSection();
    expect(toggle(section, /Admin access/).disabled).toBe(true);
    expect(toggle(section, /School access/).disabled).toBe(true);
    expect(within(section).queryByRole("link", { name: "Open the demo school dashboard" })).toBeNull();
    fireEvent.click(toggle(section, /Demo school visible/));
    expect(toggle(section, /Admin access/).disabled).toBe(false);
  });

  it("saves the toggles and shows the success text for 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = serve(DEMO_SETTINGS_DEFAULTS);
    const section = await openSection();
    fireEvent.click(toggle(section, /School access/));
    fireEvent.click(within(section).getByRole("button", { name: "Save Demo Settings" }));
    expect(await within(section).findByText("Demo settings saved successfully.")).toBeTruthy();
    const post = fetchMock.mock.calls.find(([u, i]) => String(u).endsWith("/api/settings/demo") && i?.method === "POST");
    expect(JSON.parse(String(post![1]!.body))).toEqual({ isDemoVisible: true, adminAccess: true, schoolAccess: true });
    expect(toggle(section, /School access/).checked).toBe(true);
    act(() => vi.advanceTimersByTime(3_000));
    await waitFor(() => expect(within(section).queryByText("Demo settings saved successfully.")).toBeNull());
  });

  it("says so when saving fails, and keeps the change", async () => {
    serve(DEMO_SETTINGS_DEFAULTS, () => jsonResponse(500, {}));
    const section = await openSection();
    fireEvent.click(toggle(section, /Admin access/));
    fireEvent.click(within(section).getByRole("button", { name: "Save Demo Settings" }));
    expect(await within(section).findByText("Failed to save settings. Please try again.")).toBeTruthy();
    expect(toggle(section, /Admin access/).checked).toBe(false);
  });

  it("says so when loading fails", async () => {
    serve("fail");
    signIn(buildUser({ role: "admin" }));
    renderApp("/admin/settings");
    const section = await screen.findByRole("region", { name: "Demo school settings" }, SLOW);
    expect(await within(section).findByText("Failed to load demo settings...", {}, SLOW)).toBeTruthy();
  });
});
