import { ERASE_RUNNING_COHORT_MESSAGE, type StudentDetail } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { eraseStudent } from "../api/erase-student";
import { EraseStudentDialog } from "./erase-student-dialog";

const STUDENT: StudentDetail = {
  id: 7,
  first_name: "Ada",
  last_name: "Quill",
  email: null,
  school_id: 1,
  school_name: "North High",
  benefit_assignment_id: null,
  currentCohort: null,
  activeTeam: null,
  previousTeams: [],
  cohorts: [],
};
const COUNTS = { students: 1, attendance: 4, weeklyData: 2, cohorts: 1, teams: 1 };

function renderDialog() {
  const onClose = vi.fn();
  const onErased = vi.fn();
  renderApp("/x", [{ path: "/x", element: <EraseStudentDialog student={STUDENT} onClose={onClose} onErased={onErased} /> }]);
  return { onClose, onErased, dialog: screen.getByRole("dialog", { name: "Erase student" }) };
}

const reasonField = (dialog: HTMLElement) => within(dialog).getByLabelText("Reason", { exact: false });

describe("the Erase student dialog", () => {
  it("names the student and what goes, and asks for a reason before sending anything", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, COUNTS));
    const { dialog } = renderDialog();
    expect(within(dialog).getByText(/Ada Quill/)).toBeTruthy();
    for (const what of ["attendance", "weekly data: hours, reflections and flags", "alerts", "advisor notes"]) {
      expect(within(dialog).getByText(what)).toBeTruthy();
    }
    fireEvent.click(within(dialog).getByRole("button", { name: "Erase student" }));
    expect(await within(dialog).findByText("reason is required")).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends DELETE with the reason, then reports the erasure", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, COUNTS));
    const { dialog, onErased } = renderDialog();
    fireEvent.change(reasonField(dialog), { target: { value: "Parent's request" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Erase student" }));
    await waitFor(() => expect(onErased).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain("/students/7");
    expect(init.method).toBe("DELETE");
    expect(JSON.parse(String(init.body))).toEqual({ reason: "Parent's request" });
  });

  it("after a running cohort's 409, erases only once forced", async () => {
    signIn(buildUser({ role: "admin" }));
    const bodies: unknown[] = [];
    mockFetch((_url, init) => {
      const body = JSON.parse(String(init.body)) as { force?: boolean };
      bodies.push(body);
      return body.force ? jsonResponse(200, COUNTS) : jsonResponse(409, { error: ERASE_RUNNING_COHORT_MESSAGE, code: "CONFLICT" });
    });
    const { dialog, onErased } = renderDialog();
    fireEvent.change(reasonField(dialog), { target: { value: "Moved away" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Erase student" }));
    expect(await within(dialog).findByText(ERASE_RUNNING_COHORT_MESSAGE)).toBeTruthy();
    const submit = within(dialog).getByRole("button", { name: "Erase student" });
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.click(within(dialog).getByLabelText("Erase although the student is in a running cohort"));
    fireEvent.click(submit);
    await waitFor(() => expect(onErased).toHaveBeenCalled());
    expect(bodies).toEqual([{ reason: "Moved away" }, { reason: "Moved away", force: true }]);
  });
});

describeSessionRefresh(() => eraseStudent(7, { reason: "Test" }));
