import { MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildStudents, callsTo, mockDashboardApi } from "../../../testing/fake-dashboard-api";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { detail, openModal, openTab, record, SLOW, week } from "../../../testing/student-detail-fixtures";

/** A phone-width window for Mantine's useMediaQuery (happy-dom matches no width query). */
const phone = (query: string) =>
  ({
    matches: /max-width:\s*(36em|48em)/.test(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as unknown as MediaQueryList;

describe("student detail modal", () => {
  it("has no Access tab for a school user", async () => {
    const { dialog } = await openModal({ details: { 1: detail() } }, "school_user");
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    expect(within(dialog).getAllByRole("tab").map((t) => t.textContent)).toEqual(["Overview", "Attendance", "Follow-up", "Flags", "Reflections", "Advisor Notes"]);
  });

  it("opens on Overview with team, cohorts, school, e-mail and descriptions", async () => {
    const { dialog } = await openModal({ details: { 1: detail() } });
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    const tabs = within(dialog).getAllByRole("tab").map((t) => t.textContent);
    // Access (issue 32): who viewed or exported the student, for admins only.
    expect(tabs).toEqual(["Overview", "Attendance", "Follow-up", "Flags", "Reflections", "Advisor Notes", "Access"]);
    expect(within(dialog).getByRole("tab", { name: "Overview" }).getAttribute("aria-selected")).toBe("true");
    expect(within(dialog).getByText("Hawks")).toBeTruthy();
    expect(within(dialog).getByText("Fall 2025 (Sep 1, 2025 – Dec 19, 2025)")).toBeTruthy();
    expect(within(dialog).getByText("North High")).toBeTruthy();
    expect(within(dialog).getByText("s1@example.org")).toBeTruthy();
    expect(within(dialog).getByText("Online ordering site")).toBeTruthy();
    expect(within(dialog).getByText("Falcons")).toBeTruthy();
    expect(within(dialog).getByText("Spring 2025: Jan 6, 2025 – May 30, 2025")).toBeTruthy();
  });

  it("shows the latest cohort's attendance shares and records, and moves between tabs by keyboard", async () => {
    const data = [
      record(1, 1, "mentor", "present"),
      record(2, 1, "advisor", "late"),
      record(3, 2, "mentor", "absent"),
      record(4, 2, "advisor", "present"),
    ];
    const { dialog, fetchMock } = await openModal({ details: { 1: detail() }, attendance: { 1: { data, weeks: [] } } });
    await within(dialog).findByText("Local bakery co-op");
    const overview = within(dialog).getByRole("tab", { name: "Overview" });
    overview.focus();
    fireEvent.keyDown(overview, { key: "ArrowRight" });
    await waitFor(() =>
      expect(within(dialog).getByRole("tab", { name: "Attendance" }).getAttribute("aria-selected")).toBe("true"),
    );
    expect((await within(dialog).findByTestId("attendance-present", {}, SLOW)).textContent).toBe("50%");
    expect(within(dialog).getByTestId("attendance-late").textContent).toBe("25%");
    expect(within(dialog).getByTestId("attendance-absent").textContent).toBe("25%");
    expect(within(dialog).getAllByText("Week 2")).toHaveLength(2);
    expect(within(dialog).getAllByText("Advisor").length).toBeGreaterThan(0);
    expect(callsTo(fetchMock, "/attendance/student/1")[0]!.get("cohortId")).toBe("11");
  });

  it("on a phone lists the records as stacked rows, each status in words (no colour-only mark)", async () => {
    vi.spyOn(window, "matchMedia").mockImplementation(phone);
    const data = [record(1, 1, "mentor", "present"), record(2, 1, "advisor", "late"), record(3, 2, "mentor", "absent")];
    const { dialog } = await openModal({ details: { 1: detail() }, attendance: { 1: { data, weeks: [] } } });
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    openTab(dialog, "Attendance");
    const list = await within(dialog).findByTestId("attendance-record-list", {}, SLOW);
    expect(within(dialog).queryByRole("table")).toBeNull();
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "Week 1LateSep 1, 2025 · AdvisorCorrect",
      "Week 1PresentSep 1, 2025 · MentorCorrect",
      "Week 2AbsentSep 2, 2025 · MentorCorrect",
    ]);
    // Nothing in a row is a mark without words.
    expect(list.querySelectorAll("[aria-hidden]")).toHaveLength(0);
  });

  it("shows an excused absence as Absent (excused) in words, counted as absent", async () => {
    const data = [record(1, 1, "mentor", "present"), record(2, 1, "advisor", "absent", 11, true), record(3, 2, "mentor", "absent")];
    const { dialog } = await openModal({ details: { 1: detail() }, attendance: { 1: { data, weeks: [] } } });
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    openTab(dialog, "Attendance");
    const table = await within(dialog).findByRole("table", {}, SLOW);
    const statuses = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.children[3]?.textContent);
    expect(statuses).toEqual(["Absent (excused)", "Present", "Absent"]);
    expect(within(dialog).getByTestId("attendance-absent").textContent).toBe("67%");
  });

  it("gives focus back to the card's View Details button when closed with Escape", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ students: buildStudents(3), details: { 1: detail() } });
    renderApp("/dashboard");
    const opener = await screen.findByRole("button", { name: "View Details for Student1 Tester" }, SLOW);
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole("dialog", {}, SLOW);
    await within(dialog).findByText("Local bakery co-op", {}, SLOW);
    expect(document.activeElement).not.toBe(opener);
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("lists weekly flags, reflections and advisor notes with the per-week empty texts", async () => {
    const weekly = [
      week(1, { flags: [{ code: "LOW_HOURS", text: "Reported hours below target" }], reflection: "Learned a lot", advisor_notes: "Keep going" }),
      week(2, {}),
    ];
    const { dialog } = await openModal({ details: { 1: detail() }, weekly: { 1: weekly } });
    await within(dialog).findByText("Local bakery co-op");
    openTab(dialog, "Flags");
    expect(await within(dialog).findByText("Reported hours below target", {}, SLOW)).toBeTruthy();
    expect(within(dialog).getByText("No flags for this week")).toBeTruthy();
    expect(within(dialog).getByRole("article", { name: "Week 1" })).toBeTruthy();
    expect(within(dialog).getAllByText(/Updated Sep 20, 2025/)).toHaveLength(2);
    openTab(dialog, "Reflections");
    expect(await within(dialog).findByText("Learned a lot")).toBeTruthy();
    expect(within(dialog).getByText("No reflection for this week")).toBeTruthy();
    openTab(dialog, "Advisor Notes");
    expect(await within(dialog).findByText("Keep going")).toBeTruthy();
    expect(within(dialog).getByText("No advisor notes for this week")).toBeTruthy();
  });

  it("shows empty texts, never a made-up 90/5/5, for a student without records", async () => {
    const { dialog } = await openModal({ details: { 1: detail() } });
    await within(dialog).findByText("Local bakery co-op");
    openTab(dialog, "Attendance");
    expect(await within(dialog).findByText("No attendance records available", {}, SLOW)).toBeTruthy();
    expect(within(dialog).queryByText(/90%|5%/)).toBeNull();
    for (const tab of ["Flags", "Reflections", "Advisor Notes"]) {
      openTab(dialog, tab);
      expect(await within(dialog).findByText("No weekly data available")).toBeTruthy();
    }
  });

  it("explains a student without cohort", async () => {
    const first = await openModal({ details: { 1: detail({ cohorts: [], currentCohort: null, activeTeam: null, previousTeams: [] }) } });
    await within(first.dialog).findByText("No previous teams");
    openTab(first.dialog, "Attendance");
    expect(await within(first.dialog).findByText("No cohort found for student")).toBeTruthy();
  });

  it("says when no attendance record belongs to the cohort", async () => {
    const data = [record(1, 1, "mentor", "present", 10)];
    const { dialog } = await openModal({ details: { 1: detail() }, attendance: { 1: { data, weeks: [] } } });
    await within(dialog).findByText("Local bakery co-op");
    openTab(dialog, "Attendance");
    expect(await within(dialog).findByText("No valid attendance records found for this cohort.", {}, SLOW)).toBeTruthy();
  });

  it("says when the attendance or the student cannot be loaded", async () => {
    const { dialog } = await openModal({ details: { 1: detail() }, failing: ["/attendance/student/1", "/weekly-data/1"] });
    await within(dialog).findByText("Local bakery co-op");
    openTab(dialog, "Attendance");
    expect(await within(dialog).findByText("No attendance data available", {}, SLOW)).toBeTruthy();
    openTab(dialog, "Flags");
    expect(await within(dialog).findByText("No weekly data available", {}, SLOW)).toBeTruthy();
  });

  it("opens the student a link names (/dashboard?student=1), as the flag uploader's conflicts link", async () => {
    signIn(buildUser({ role: "admin" }));
    mockDashboardApi({ students: buildStudents(3), details: { 1: detail() } });
    renderApp("/dashboard?student=1");
    const dialog = await screen.findByRole("dialog", { name: "Student1 Tester" }, SLOW);
    expect(await within(dialog).findByText("BA-100001", {}, SLOW)).toBeTruthy();
  });

  it("says when the student detail is missing", async () => {
    const { dialog } = await openModal({ details: {} });
    expect(await within(dialog).findByText("No student data available", {}, SLOW)).toBeTruthy();
  });
});

describe("editing a student", () => {
  it("lets an admin correct the name and shows the server's error", async () => {
    let replies = 0;
    const { dialog, fetchMock } = await openModal({
      details: { 1: detail() },
      onUpdate: () => {
        replies++;
        return replies === 1
          ? jsonResponse(409, { error: "A student with this e-mail address already exists", code: "CONFLICT" })
          : jsonResponse(200, detail({ first_name: "Stu" }));
      },
    });
    fireEvent.click(await within(dialog).findByRole("button", { name: "Edit Student" }, SLOW));
    expect(within(dialog).getByRole("combobox", { name: "School" })).toBeTruthy();
    expect((within(dialog).getByLabelText(/E-mail/) as HTMLInputElement).disabled).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/First name/), { target: { value: "Stu" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("A student with this e-mail address already exists")).toBeTruthy();
    const before = callsTo(fetchMock, "/students").length;
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    await within(dialog).findByRole("button", { name: "Edit Student" });
    const puts = fetchMock.mock.calls.filter((c) => c[1]?.method === "PUT");
    expect(JSON.parse(String(puts.at(-1)![1]!.body))).toEqual({ first_name: "Stu" });
    // The grid is reloaded after a successful change.
    await waitFor(() => expect(callsTo(fetchMock, "/students").length).toBeGreaterThan(before));
  });

  it("shows the Benefit Assignment ID on the Overview and lets an admin change it", async () => {
    const { dialog, fetchMock } = await openModal({
      details: { 1: detail() },
      onUpdate: () => jsonResponse(200, detail({ benefit_assignment_id: "BA-200" })),
    });
    expect(await within(dialog).findByText("BA-100001", {}, SLOW)).toBeTruthy();
    expect(within(dialog).getByText("Benefit Assignment ID")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Edit Student" }));
    const field = within(dialog).getByLabelText(/Benefit Assignment ID/) as HTMLInputElement;
    expect(field.value).toBe("BA-100001");
    fireEvent.change(field, { target: { value: " BA-200 " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    await within(dialog).findByRole("button", { name: "Edit Student" });
    const puts = fetchMock.mock.calls.filter((c) => c[1]?.method === "PUT");
    expect(JSON.parse(String(puts.at(-1)![1]!.body))).toEqual({ benefit_assignment_id: "BA-200" });
  });

  it("gives a school user no school choice and a read-only e-mail, never sent", async () => {
    const first = await openModal({ details: { 1: detail() }, onUpdate: () => jsonResponse(200, detail({ first_name: "Stu" })) }, "school_user");
    fireEvent.click(await within(first.dialog).findByRole("button", { name: "Edit Student" }, SLOW));
    expect(within(first.dialog).getByRole("combobox", { name: "Team" })).toBeTruthy();
    expect(within(first.dialog).queryByRole("combobox", { name: "School" })).toBeNull();
    const email = within(first.dialog).getByLabelText(/E-mail/) as HTMLInputElement;
    expect(email.disabled).toBe(true);
    expect(email.value).toBe("s1@example.org");
    expect(within(first.dialog).getByText(MESSAGES.studentEmailAdminOnly)).toBeTruthy();
    // The Benefit Assignment ID is shown on the Overview, but only admins change it.
    expect(within(first.dialog).queryByLabelText(/Benefit Assignment ID/)).toBeNull();
    fireEvent.change(within(first.dialog).getByLabelText(/First name/), { target: { value: "Stu" } });
    fireEvent.click(within(first.dialog).getByRole("button", { name: "Save Changes" }));
    await within(first.dialog).findByRole("button", { name: "Edit Student" });
    const puts = first.fetchMock.mock.calls.filter((c) => c[1]?.method === "PUT");
    expect(JSON.parse(String(puts.at(-1)![1]!.body))).toEqual({ first_name: "Stu" });
  });

  it("hides editing from a school user when enableStudentEditing is off", async () => {
    const { dialog, fetchMock } = await openModal(
      {
        details: { 1: detail() },
        features: {
          data: { enableExport: true, enableStudentEditing: false, applyToAllSchools: true, schoolSettings: {} },
          effective: { school_id: 1, enableExport: true, enableStudentEditing: false },
        },
      },
      "school_user",
    );
    await within(dialog).findByText("Local bakery co-op");
    await waitFor(() => expect(callsTo(fetchMock, "/settings/features")).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(within(dialog).queryByRole("button", { name: "Edit Student" })).toBeNull();
  });
});
