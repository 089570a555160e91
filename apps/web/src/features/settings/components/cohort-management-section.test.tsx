import type { AdminCohortItem } from "@tally/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { CohortManagementSection } from "./cohort-management-section";
import { renderWithProviders } from "../../../testing/render-app";

const spring: AdminCohortItem = {
  id: 4,
  name: "Spring 2026",
  program_type: "Internship (4 week)",
  start_date: "2026-03-02",
  end_date: "2026-03-27",
  total_expected_hours: 80,
  student_count: 31,
  week_count: 4,
};

function renderSection() {
  signIn(buildUser({ role: "admin" }));
  return renderWithProviders(<CohortManagementSection />);
}

function field(dialog: HTMLElement, label: string) {
  return within(dialog).getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;
}

describe("Cohort & Weekly Data Management section", () => {
  it("lists the cohorts with dates, hours, students and weeks, and offers the import", async () => {
    mockFetch((url) => jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [spring] }));
    renderSection();
    const table = await screen.findByRole("table", { name: "Cohorts" });
    const cells = within(table).getAllByRole("cell").map((c) => c.textContent);
    expect(cells).toEqual(["Spring 2026", "Internship (4 week)", "2026-03-02", "2026-03-27", "80", "31", "4", "Edit"]);
    expect((screen.getByRole("button", { name: "Import Weekly Data for Cohort" }) as HTMLButtonElement).disabled).toBe(false);
    expect(await screen.findByText("No imports yet.")).toBeTruthy();
  });

  it("adds a cohort and says so", async () => {
    const fetch = mockFetch((url, init) =>
      init.method === "POST"
        ? jsonResponse(201, { data: { ...spring, id: 9, ...JSON.parse(String(init.body)), student_count: 0, week_count: 6 } })
        : jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [spring] }),
    );
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Add cohort" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Cohort" });
    fireEvent.change(field(dialog, "Cohort name"), { target: { value: "Summer 2026" } });
    fireEvent.change(field(dialog, "Program type"), { target: { value: "Internship (6 week)" } });
    fireEvent.change(field(dialog, "Start date"), { target: { value: "2026-06-01" } });
    fireEvent.change(field(dialog, "End date"), { target: { value: "2026-07-10" } });
    fireEvent.change(field(dialog, "Total expected hours"), { target: { value: "120" } });
    expect(within(dialog).getByText("6 weeks from these dates")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Add Cohort" }));
    expect(await screen.findByText('Cohort "Summer 2026" added successfully.')).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: "Summer 2026",
      program_type: "Internship (6 week)",
      start_date: "2026-06-01",
      end_date: "2026-07-10",
      total_expected_hours: 120,
    });
  });

  it("names each wrong field and sends nothing", async () => {
    const fetch = mockFetch((url) => jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [spring] }));
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Edit Spring 2026" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Cohort" });
    expect(field(dialog, "Cohort name").value).toBe("Spring 2026");
    fireEvent.change(field(dialog, "End date"), { target: { value: "2026-03-01" } });
    fireEvent.change(field(dialog, "Total expected hours"), { target: { value: "-3" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("End date must be after the start date")).toBeTruthy();
    expect(within(dialog).getByText("Total expected hours must be 0 or more")).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === "PATCH")).toBe(false);
  });

  it("edits a cohort with PATCH and shows the server's refusal in the dialog", async () => {
    const fetch = mockFetch((url, init) =>
      init.method === "PATCH"
        ? jsonResponse(400, { error: "Program type must be one of: ...", code: "VALIDATION_ERROR" })
        : jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [spring] }),
    );
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Edit Spring 2026" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Cohort" });
    fireEvent.change(field(dialog, "Program type"), { target: { value: "Projects" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("Program type must be one of: ...")).toBeTruthy();
    const patch = fetch.mock.calls.find(([, init]) => init?.method === "PATCH");
    expect(patch?.[0]).toBe("/api/cohorts/4");
  });
});
