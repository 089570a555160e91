import { type AlertRules, DEFAULT_ALERT_RULES, DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderWithProviders } from "../../../testing/render-app";
import { AlertRulesSection } from "./alert-rules-section";

const SAVED: AlertRules = { rules: DEFAULT_ALERT_RULES, cohortOverrides: [], schedule: DEFAULT_ALERT_SCHEDULE, cohortId: null };

/** GET /alert-rules answers the defaults; preview counts; PUT refuses with the server's 400 shape. */
function mockRulesApi() {
  const sent: Array<{ path: string; method: string; body: unknown }> = [];
  mockFetch((url, init) => {
    const path = new URL(url, "http://test").pathname;
    const method = init.method ?? "GET";
    if (method !== "GET") sent.push({ path, method, body: JSON.parse(String(init.body)) as unknown });
    if (path === "/api/alert-rules" && method === "GET") return jsonResponse(200, SAVED);
    if (path === "/api/alert-rules/preview") {
      return jsonResponse(200, { counts: { attendance_band: 12, consecutive_misses: 4, target_out_of_reach: 1, flags: 0, missing_from_reports: 7, low_hours: 3 } });
    }
    if (path === "/api/alert-rules" && method === "PUT") {
      return jsonResponse(400, {
        error: "count must be a whole number from 1 to 52",
        code: "VALIDATION_ERROR",
        details: [{ path: "body.rules.1.params.count", message: "count must be a whole number from 1 to 52" }],
      });
    }
    if (path === "/api/cohorts") return jsonResponse(200, { data: [{ id: 10, name: "Spring 2025", program_type: "p", start_date: "2025-01-06", end_date: "2025-05-30", total_expected_hours: null }] });
    return jsonResponse(404, { error: "Not found", code: "NOT_FOUND" });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("Admin Settings → Alert Rules", () => {
  it("previews each rule's count with the edited rules before saving, and sends a cohort's override with only its own fields", async () => {
    const sent = mockRulesApi();
    renderWithProviders(<AlertRulesSection />);
    const misses = await screen.findByTestId("rule-consecutive_misses");
    fireEvent.change(within(misses).getByLabelText("Misses in a row"), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText("Cohort to override"), { target: { value: "10" } });
    const lowHours = await screen.findByRole("group", { name: "Low hours for this cohort" });
    const field = within(lowHours).getByLabelText("Below this % of the expected hours") as HTMLInputElement;
    expect(field.placeholder).toBe("Inherited: 60");
    fireEvent.change(field, { target: { value: "50" } });

    fireEvent.click(screen.getByRole("button", { name: "Preview" }));
    const preview = await screen.findByRole("status", { name: "Preview" });
    expect(preview.textContent).toContain("Attendance band: 12");
    expect(preview.textContent).toContain("Missing from the week's reports: 7");
    const body = sent[0]!.body as { rules: Array<{ rule: string; params: Record<string, unknown> }>; cohortOverrides: unknown[] };
    expect(sent[0]!.path).toBe("/api/alert-rules/preview");
    expect(body.rules.find((r) => r.rule === "consecutive_misses")!.params).toEqual({ count: 3, countTogether: true });
    expect(body.cohortOverrides).toEqual([{ cohortId: 10, rule: "low_hours", params: { percentOfExpected: 50 } }]);
  });

  it("shows a 400's message at the field it names", async () => {
    const sent = mockRulesApi();
    renderWithProviders(<AlertRulesSection />);
    const misses = await screen.findByTestId("rule-consecutive_misses");
    fireEvent.change(within(misses).getByLabelText("Misses in a row"), { target: { value: "99" } });
    fireEvent.click(screen.getByRole("button", { name: "Save alert rules" }));
    await waitFor(() => expect(sent.some((s) => s.method === "PUT")).toBe(true));
    const input = within(misses).getByLabelText("Misses in a row");
    await waitFor(() => expect(input.getAttribute("aria-invalid")).toBe("true"));
    expect(within(misses).getByText("count must be a whole number from 1 to 52")).toBeTruthy();
    // The other rules' fields carry no error.
    expect(within(screen.getByTestId("rule-flags")).queryByText(/must be/)).toBeNull();
  });
});
