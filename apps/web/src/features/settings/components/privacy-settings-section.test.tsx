import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { PRIVACY_DEFAULTS, type PrivacySettings } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";

// The first render of the whole page pays for loading its code.
const SLOW = { timeout: 5_000 };

const NAMES: Record<string, string[]> = { "3": ["Ada Ancient", "Otto Oldie"], "5": ["Ada Ancient"] };

/** The page with the privacy endpoints answering `stored`, previews by years, and `onRun` for a run now. */
function serve(stored: PrivacySettings | "fail", onRun: () => Response = () => jsonResponse(200, { students: 2, attendance: 4, weeklyData: 2, cohorts: 2, teams: 1 })) {
  return mockFetch((url, init) => {
    if (url.startsWith("/api/settings/privacy/retention-preview")) {
      const names = NAMES[new URL(url, "http://x").searchParams.get("years") ?? ""] ?? [];
      return jsonResponse(200, { students: names.length, names });
    }
    if (url.startsWith("/api/settings/privacy/retention-run")) return onRun();
    if (url.startsWith("/api/settings/privacy")) {
      if (init.method === "PUT") return jsonResponse(200, JSON.parse(String(init.body)));
      return stored === "fail" ? jsonResponse(500, {}) : jsonResponse(200, stored);
    }
    return jsonResponse(200, { data: [] });
  });
}

async function openSection() {
  signIn(buildUser({ role: "admin" }));
  renderApp("/admin/settings");
  const section = await screen.findByRole("region", { name: "Privacy and retention" }, SLOW);
  await within(section).findByRole("switch", { name: /Remove students after their last cohort/ }, SLOW);
  return section;
}

const calls = (fetchMock: ReturnType<typeof serve>, path: string, method = "GET") =>
  fetchMock.mock.calls.filter(([u, i]) => String(u).includes(path) && (i?.method ?? "GET") === method);

describe("Privacy and retention", () => {
  it("shows what retention would remove (count and names) once switched on, before it is saved, then saves it", async () => {
    const fetchMock = serve({ ...PRIVACY_DEFAULTS });
    const section = await openSection();
    expect(within(section).queryByRole("status", { name: "Retention preview" })).toBeNull();
    expect(calls(fetchMock, "retention-preview")).toHaveLength(0);
    // No run while retention is off.
    expect(within(section).queryByRole("button", { name: "Run now" })).toBeNull();

    fireEvent.click(within(section).getByRole("switch", { name: /Remove students after their last cohort/ }));
    expect((within(section).getByRole("textbox", { name: /Years after the last cohort ended/ }) as HTMLInputElement).value).toBe("3");
    const preview = await within(section).findByRole("status", { name: "Retention preview" });
    expect(preview.textContent).toContain("A run now would remove 2 students whose last cohort ended more than 3 years ago");
    expect(within(preview).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Ada Ancient", "Otto Oldie"]);
    expect(calls(fetchMock, "/api/settings/privacy", "PUT")).toHaveLength(0);

    fireEvent.change(within(section).getByRole("textbox", { name: /Years after the last cohort ended/ }), { target: { value: "5" } });
    await waitFor(() => expect(within(section).getByRole("status", { name: "Retention preview" }).textContent).toContain("remove 1 student whose"));
    expect(calls(fetchMock, "retention-preview").map(([u]) => String(u))).toEqual(
      expect.arrayContaining([expect.stringContaining("years=3"), expect.stringContaining("years=5")]),
    );

    fireEvent.click(within(section).getByRole("button", { name: "Save Privacy Settings" }));
    expect(await within(section).findByText("Privacy settings saved successfully.")).toBeTruthy();
    const [put] = calls(fetchMock, "/api/settings/privacy", "PUT");
    expect(JSON.parse(String(put![1]!.body))).toEqual({ retentionYears: 5, bulkExportThreshold: 500, blockOnAlarm: false });
  });

  it("runs now only after a confirmation naming who goes; Cancel runs nothing", async () => {
    const fetchMock = serve({ ...PRIVACY_DEFAULTS, retentionYears: 3 });
    const section = await openSection();
    fireEvent.click(within(section).getByRole("button", { name: "Run now" }));
    let dialog = await screen.findByRole("dialog", { name: "Run retention now?" });
    expect((await within(dialog).findByRole("status", { name: "Retention preview" })).textContent).toContain("remove 2 students");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls(fetchMock, "retention-run", "POST")).toHaveLength(0);

    fireEvent.click(within(section).getByRole("button", { name: "Run now" }));
    dialog = await screen.findByRole("dialog", { name: "Run retention now?" });
    expect(within(dialog).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Ada Ancient", "Otto Oldie"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove students" }));
    expect(await within(section).findByText("Retention removed 2 students.")).toBeTruthy();
    expect(calls(fetchMock, "retention-run", "POST")).toHaveLength(1);
  });

  it("says so when the run fails", async () => {
    serve({ ...PRIVACY_DEFAULTS, retentionYears: 3 }, () => jsonResponse(409, { error: "Retention is off" }));
    const section = await openSection();
    fireEvent.click(within(section).getByRole("button", { name: "Run now" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "Run retention now?" })).getByRole("button", { name: "Remove students" }));
    expect(await within(section).findByText("Retention did not run. Please try again.")).toBeTruthy();
  });

  it("says so when loading fails", async () => {
    serve("fail");
    signIn(buildUser({ role: "admin" }));
    renderApp("/admin/settings");
    const section = await screen.findByRole("region", { name: "Privacy and retention" }, SLOW);
    expect(await within(section).findByText("Failed to load privacy settings...", {}, SLOW)).toBeTruthy();
  });
});
