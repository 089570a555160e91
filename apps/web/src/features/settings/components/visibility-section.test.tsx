import type { CohortItem, CohortVisibilitySetting, SchoolItem } from "@tally/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { VisibilitySection } from "./visibility-section";
import { pickComboboxOption } from "../../../testing/combobox";
import { renderWithProviders } from "../../../testing/render-app";

const year = new Date().getFullYear();
const cohort = (id: number, name: string, startYear: number): CohortItem => ({
  id,
  name,
  program_type: "Projects",
  start_date: `${startYear}-02-01`,
  end_date: `${startYear}-03-01`,
  total_expected_hours: 40,
});
const cohorts = [cohort(1, "Spring Current", year), cohort(2, "Autumn Last", year - 1), cohort(3, "Old Winter", year - 3)];
const schools: SchoolItem[] = [
  { id: 10, name: "Alder High", district: "North" } as SchoolItem,
  { id: 20, name: "Birch Academy", district: "South" } as SchoolItem,
];

interface Api {
  rows?: CohortVisibilitySetting[];
  loadFails?: boolean;
  saveFails?: boolean;
}

function mockApi(api: Api) {
  const posts: unknown[] = [];
  const fetch = mockFetch((url, init) => {
    if (url.startsWith("/api/cohorts")) return jsonResponse(200, { data: cohorts });
    if (url.startsWith("/api/schools")) return jsonResponse(200, { data: schools });
    if (url.startsWith("/api/settings/cohort-visibility")) {
      if (init.method === "POST") {
        posts.push(JSON.parse(String(init.body)));
        if (api.saveFails) return jsonResponse(500, { error: "boom", code: "INTERNAL" });
        const { settings } = JSON.parse(String(init.body)) as { settings: CohortVisibilitySetting[] };
        return jsonResponse(200, { message: "saved", data: [...(api.rows ?? []), ...settings] });
      }
      return api.loadFails ? jsonResponse(500, { error: "boom", code: "INTERNAL" }) : jsonResponse(200, { data: api.rows ?? [] });
    }
    return jsonResponse(404, {});
  });
  return { fetch, posts };
}

function renderSection() {
  signIn(buildUser({ role: "admin" }));
  renderWithProviders(<VisibilitySection />);
}

const switchFor = (name: string) => screen.getByRole("switch", { name }) as HTMLInputElement;

async function pickSchool(name: string) {
  const input = screen.getAllByLabelText("Show settings for").find((e) => e.tagName === "INPUT") as HTMLInputElement;
  await pickComboboxOption(input, name);
}

describe("School Data Visibility", () => {
  it("shows a switch per cohort with the all-schools values, and a school's own row over them", async () => {
    mockApi({
      rows: [
        { cohort_id: 2, school_id: null, is_visible: false },
        { cohort_id: 2, school_id: 20, is_visible: true },
      ],
    });
    renderSection();
    expect(await screen.findByRole("switch", { name: "Spring Current" })).toBeTruthy();
    expect(switchFor("Spring Current").checked).toBe(true);
    expect(switchFor("Autumn Last").checked).toBe(false);
    await pickSchool("Birch Academy");
    await waitFor(() => expect(switchFor("Autumn Last").checked).toBe(true));
    expect(screen.getByText(/set for this school/)).toBeTruthy();
    await pickSchool("Alder High");
    await waitFor(() => expect(switchFor("Autumn Last").checked).toBe(false));
  });

  it("keeps unsaved changes across the school filter and saves them all in one batch", async () => {
    const { posts } = mockApi({ rows: [] });
    renderSection();
    fireEvent.click(await screen.findByRole("switch", { name: "Spring Current" }));
    expect(screen.getByTestId("unsaved-badge").textContent).toBe("Unsaved changes: 1");
    await pickSchool("Alder High");
    // Alder follows the (unsaved) all-schools change, then gets its own.
    await waitFor(() => expect(switchFor("Spring Current").checked).toBe(false));
    fireEvent.click(switchFor("Old Winter"));
    expect(screen.getByTestId("unsaved-badge").textContent).toBe("Unsaved changes: 2");
    await pickSchool("All schools");
    await waitFor(() => expect(switchFor("Spring Current").checked).toBe(false));

    fireEvent.click(screen.getByRole("button", { name: "Save visibility settings" }));
    expect(await screen.findByText("Visibility settings saved successfully.")).toBeTruthy();
    expect(posts).toEqual([
      {
        settings: [
          { cohort_id: 1, school_id: null, is_visible: false },
          { cohort_id: 3, school_id: 10, is_visible: false },
        ],
      },
    ]);
    expect(screen.queryByTestId("unsaved-badge")).toBeNull();
    await waitFor(() => expect(screen.queryByText("Visibility settings saved successfully.")).toBeNull(), { timeout: 4000 });
  });

  it("drops an edit that goes back to the stored value, and Discard drops them all", async () => {
    mockApi({ rows: [] });
    renderSection();
    const sw = await screen.findByRole("switch", { name: "Spring Current" });
    fireEvent.click(sw);
    fireEvent.click(sw);
    expect(screen.queryByTestId("unsaved-badge")).toBeNull();
    fireEvent.click(switchFor("Old Winter"));
    expect(screen.getByTestId("unsaved-badge")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Discard changes" }));
    expect(screen.queryByTestId("unsaved-badge")).toBeNull();
    expect(switchFor("Old Winter").checked).toBe(true);
  });

  it("keeps the edits and says so when the save fails", async () => {
    mockApi({ rows: [], saveFails: true });
    renderSection();
    fireEvent.click(await screen.findByRole("switch", { name: "Old Winter" }));
    fireEvent.click(screen.getByRole("button", { name: "Save visibility settings" }));
    expect(await screen.findByText("Failed to save settings. Please try again.")).toBeTruthy();
    expect(screen.getByTestId("unsaved-badge")).toBeTruthy();
    expect(switchFor("Old Winter").checked).toBe(false);
  });

  it("falls back to the cohorts starting this year or last year, and says it is a fallback", async () => {
    mockApi({ loadFails: true });
    renderSection();
    expect(await screen.findByText("Failed to load visibility settings. Please try again.")).toBeTruthy();
    expect(screen.getByText(/Showing a fallback/)).toBeTruthy();
    expect(switchFor("Spring Current").checked).toBe(true);
    expect(switchFor("Autumn Last").checked).toBe(true);
    expect(switchFor("Old Winter").checked).toBe(false);
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });
});
