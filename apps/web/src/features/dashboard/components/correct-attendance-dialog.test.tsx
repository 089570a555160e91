import { fireEvent, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { callsTo } from "../../../testing/fake-dashboard-api";
import { jsonResponse } from "../../../testing/mock-fetch";
import { detail, openModal, openTab, record, SLOW } from "../../../testing/student-detail-fixtures";

// Issue 30's "attendance edit": a meeting's status corrected from the student's Attendance tab.

const records = [record(1, 1, "mentor", "present"), record(3, 2, "mentor", "absent")];
const OFF = {
  data: { enableExport: true, enableStudentEditing: false, applyToAllSchools: true, schoolSettings: {} },
  effective: { school_id: 1, enableExport: true, enableStudentEditing: false },
};

const puts = (fetchMock: Awaited<ReturnType<typeof openModal>>["fetchMock"]) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).includes("/api/attendance/") && (init as RequestInit | undefined)?.method === "PUT");

async function openCorrection(world: Parameters<typeof openModal>[0]) {
  const opened = await openModal({ details: { 1: detail() }, attendance: { 1: { data: records, weeks: [] } }, ...world });
  await within(opened.dialog).findByText("Local bakery co-op", {}, SLOW);
  openTab(opened.dialog, "Attendance");
  fireEvent.click(await within(opened.dialog).findByRole("button", { name: "Correct Mentor meeting, Sep 2, 2025 (Week 2)" }, SLOW));
  const form = await within(document.body).findByRole("form", { name: "Correct attendance" }, SLOW);
  return { ...opened, form };
}

describe("correcting a meeting", () => {
  it("saves the chosen status (excused as absent, excused) and rereads the records", async () => {
    const { form, fetchMock } = await openCorrection({});
    expect(within(form).getByText("Mentor meeting, Sep 2, 2025 (Week 2)")).toBeTruthy();
    expect((within(form).getByRole("radio", { name: "Absent" }) as HTMLInputElement).checked).toBe(true);
    // Nothing chosen yet that differs: Save waits.
    expect((within(form).getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    const readsBefore = callsTo(fetchMock, "/attendance/student/1").length;
    fireEvent.click(within(form).getByRole("radio", { name: "Absent (excused)" }));
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    const [url, init] = puts(fetchMock)[0]!;
    expect(String(url)).toMatch(/\/api\/attendance\/3$/);
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ status: "absent", excused: true });
    await waitFor(() => expect(document.body.querySelector('form[aria-label="Correct attendance"]')).toBeNull(), SLOW);
    await waitFor(() => expect(callsTo(fetchMock, "/attendance/student/1").length).toBeGreaterThan(readsBefore), SLOW);
  });

  it("keeps the dialog open with the server's words when the correction is refused", async () => {
    const { form } = await openCorrection({
      onCorrect: () => jsonResponse(403, { error: "Student editing is turned off for this school.", code: "FORBIDDEN" }),
    });
    fireEvent.click(within(form).getByRole("radio", { name: "Present" }));
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    expect((await within(form).findByRole("alert", {}, SLOW)).textContent).toContain("Student editing is turned off for this school.");
    expect(within(form).getByRole("button", { name: "Cancel" })).toBeTruthy();
  });

  it("offers no correction to a school user where student editing is off", async () => {
    const { dialog, fetchMock } = await openModal(
      { details: { 1: detail() }, attendance: { 1: { data: records, weeks: [] } }, features: OFF },
      "school_user",
    );
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    await waitFor(() => expect(callsTo(fetchMock, "/settings/features")).toHaveLength(1));
    openTab(dialog, "Attendance");
    await within(dialog).findByTestId("attendance-present", {}, SLOW);
    expect(within(dialog).queryByRole("button", { name: /^Correct / })).toBeNull();
  });
});
