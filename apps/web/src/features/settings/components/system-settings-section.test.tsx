import type { AdminSchoolItem } from "@tally/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { SystemSettingsSection } from "./system-settings-section";
import { renderWithProviders } from "../../../testing/render-app";

const alder: AdminSchoolItem = { id: 1, name: "Alder High", district: "North", student_count: 12 };

function renderSection() {
  signIn(buildUser({ role: "admin" }));
  return renderWithProviders(<SystemSettingsSection />);
}

describe("System Settings section", () => {
  it("lists the schools with district and student count", async () => {
    mockFetch(() => jsonResponse(200, { data: [alder, { id: 2, name: "Birch", district: "", student_count: 0 }] }));
    renderSection();
    const table = await screen.findByRole("table", { name: "Schools" });
    const rows = within(table).getAllByRole("row").map((r) => r.textContent);
    expect(rows[1]).toBe("Alder HighNorth12Rename");
    expect(rows[2]).toBe("Birch—0Rename");
  });

  it("adds a school, refreshes the list and says so", async () => {
    const list = [alder];
    const fetch = mockFetch((url, init) => {
      if (init.method === "POST") {
        const body = JSON.parse(String(init.body));
        const created = { id: 3, district: "", ...body, student_count: 0 };
        list.push(created);
        return jsonResponse(201, { data: created });
      }
      return jsonResponse(200, { data: list });
    });
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Add school" }));
    const dialog = await screen.findByRole("dialog", { name: "Add School" });
    fireEvent.change(within(dialog).getByLabelText(/^School name/), { target: { value: "  Cedar College " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add School" }));
    expect(await screen.findByText('School "Cedar College" added successfully.')).toBeTruthy();
    expect(await screen.findByText("Cedar College")).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post?.[0]).toBe("/api/schools");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ name: "Cedar College", district: "" });
  });

  it("names the field when the name is empty, without calling the server", async () => {
    const fetch = mockFetch(() => jsonResponse(200, { data: [alder] }));
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Add school" }));
    const dialog = await screen.findByRole("dialog", { name: "Add School" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add School" }));
    expect(await within(dialog).findByText("School name is required")).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("renames a school and shows the server's 409 at the name field", async () => {
    mockFetch((url, init) =>
      init.method === "PATCH"
        ? jsonResponse(409, { error: 'A school named "Birch" already exists', code: "CONFLICT" })
        : jsonResponse(200, { data: [alder] }),
    );
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Rename Alder High" }));
    const dialog = await screen.findByRole("dialog", { name: "Rename School" });
    const name = within(dialog).getByLabelText(/^School name/) as HTMLInputElement;
    expect(name.value).toBe("Alder High");
    fireEvent.change(name, { target: { value: "Birch" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText('A school named "Birch" already exists')).toBeTruthy();
    expect(name.getAttribute("aria-invalid")).toBe("true");
  });

  it("says when the list cannot load and offers Retry", async () => {
    mockFetch(() => jsonResponse(500, {}));
    renderSection();
    expect(await screen.findByText("Failed to load schools. Please try again.", {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });
});
