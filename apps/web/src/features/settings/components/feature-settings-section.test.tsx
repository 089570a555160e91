import type { FeatureSettings, SchoolItem } from "@tally/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { FEATURE_TEXTS, FeatureSettingsSection } from "./feature-settings-section";
import { renderWithProviders } from "../../../testing/render-app";

const SCHOOLS: SchoolItem[] = Array.from({ length: 42 }, (_, i) => ({
  id: i + 1,
  name: `${i % 2 === 0 ? "Oak" : "Pine"} School ${String(i + 1).padStart(2, "0")}`,
  district: "D1",
}));

const DEFAULTS: FeatureSettings = { enableExport: true, enableStudentEditing: true, applyToAllSchools: true, schoolSettings: {} };

interface World {
  settings?: FeatureSettings;
  failLoad?: () => boolean;
  failSave?: boolean;
}

function mockApi(world: World = {}) {
  let stored = world.settings ?? DEFAULTS;
  return mockFetch((url, init) => {
    if (url.startsWith("/api/schools")) return jsonResponse(200, { data: SCHOOLS });
    if (url.startsWith("/api/settings/features") && init.method === "POST") {
      if (world.failSave) return jsonResponse(500, { error: "boom", code: "INTERNAL" });
      stored = JSON.parse(String(init.body)) as FeatureSettings;
      return jsonResponse(200, { data: stored });
    }
    if (url.startsWith("/api/settings/features")) {
      if (world.failLoad?.()) return jsonResponse(500, { error: "boom", code: "INTERNAL" });
      return jsonResponse(200, { data: stored, effective: { school_id: null, enableExport: true, enableStudentEditing: true } });
    }
    return jsonResponse(404, { error: "Not found", code: "NOT_FOUND" });
  });
}

function renderSection() {
  signIn(buildUser({ role: "admin" }));
  return renderWithProviders(<FeatureSettingsSection />);
}

const sw = (name: string) => screen.getByRole("switch", { name }) as HTMLInputElement;
const posted = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([u, i]) => String(u).endsWith("/api/settings/features") && i?.method === "POST")
    .map(([, i]) => JSON.parse(String(i!.body)) as unknown);

afterEach(() => {
  vi.useRealTimers();
});

// The per-school table renders 42 rows of switches; on a busy machine that outlasts 5 s.
describe("School Feature Settings", { timeout: 20_000 }, () => {
  it("shows the global toggles and hides the per-school table while applied to all schools", async () => {
    mockApi();
    renderSection();
    expect(await screen.findByRole("switch", { name: "Enable export" })).toBeTruthy();
    expect(sw("Enable export").checked).toBe(true);
    expect(sw("Enable student editing").checked).toBe(true);
    expect(sw("Apply to all schools").checked).toBe(true);
    expect(screen.queryByRole("table", { name: "Feature settings per school" })).toBeNull();
  });

  it("lists every school when not applied to all, starting from the global values, searchable by name", async () => {
    mockApi({
      settings: { enableExport: false, enableStudentEditing: true, applyToAllSchools: false, schoolSettings: { "3": { enableExport: true, enableStudentEditing: false } } },
    });
    renderSection();
    const table = await screen.findByRole("table", { name: "Feature settings per school" });
    expect(within(table).getAllByRole("row")).toHaveLength(SCHOOLS.length + 1);
    expect(sw("Oak School 01 export").checked).toBe(false);
    expect(sw("Oak School 01 student editing").checked).toBe(true);
    expect(sw("Oak School 03 export").checked).toBe(true);
    expect(sw("Oak School 03 student editing").checked).toBe(false);
    fireEvent.change(screen.getByRole("searchbox", { name: "Search schools" }), { target: { value: "pine school 1" } });
    const names = within(table).getAllByRole("row").slice(1).map((r) => r.querySelector("td")?.textContent);
    expect(names).toEqual(["Pine School 10", "Pine School 12", "Pine School 14", "Pine School 16", "Pine School 18"]);
    expect(screen.getByText("5 of 42 schools")).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search schools" }), { target: { value: "elm" } });
    expect(screen.getByText("No school matches the search.")).toBeTruthy();
  });

  it("saves the whole setting, a changed school getting its own row, and the success text clears after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockApi();
    renderSection();
    fireEvent.click(await screen.findByRole("switch", { name: "Apply to all schools" }));
    await screen.findByRole("table", { name: "Feature settings per school" });
    // A school starts from the global values, which it keeps for the toggle left alone.
    fireEvent.click(sw("Enable student editing"));
    fireEvent.click(sw("Pine School 02 export"));
    expect(screen.getByTestId("feature-settings-unsaved")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain(FEATURE_TEXTS.saved);
    expect(posted(fetchMock)).toEqual([
      {
        enableExport: true,
        enableStudentEditing: false,
        applyToAllSchools: false,
        schoolSettings: { "2": { enableExport: false, enableStudentEditing: false } },
      },
    ]);
    await waitFor(() => expect(screen.queryByTestId("feature-settings-unsaved")).toBeNull());
    expect(sw("Pine School 02 export").checked).toBe(false);
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.queryByTestId("success-banner")).toBeNull();
  });

  it("discards unsaved changes on request", async () => {
    mockApi();
    renderSection();
    fireEvent.click(await screen.findByRole("switch", { name: "Enable export" }));
    expect(sw("Enable export").checked).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Discard changes" }));
    expect(sw("Enable export").checked).toBe(true);
    expect(screen.queryByTestId("feature-settings-unsaved")).toBeNull();
  });

  it("says so when saving fails, keeping the changes", async () => {
    mockApi({ failSave: true });
    renderSection();
    fireEvent.click(await screen.findByRole("switch", { name: "Enable export" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("error-banner")).textContent).toContain(FEATURE_TEXTS.saveFailed);
    expect(sw("Enable export").checked).toBe(false);
  });

  it("says so when loading fails, and Retry loads again", async () => {
    let fail = true;
    mockApi({ failLoad: () => fail });
    renderSection();
    expect(await screen.findByText(FEATURE_TEXTS.loadFailed, {}, { timeout: 8000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("switch", { name: "Enable export" })).toBeTruthy();
  });
});
