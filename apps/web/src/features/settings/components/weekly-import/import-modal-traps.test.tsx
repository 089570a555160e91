import { IMPORT_FILE_LABELS, type ImportPreview } from "@tally/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type UploadOptions, uploadWithProgress } from "../../../../lib/upload-with-progress";
import { jsonResponse, mockFetch } from "../../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../../testing/signed-in-user";
import { CohortManagementSection } from "../cohort-management-section";
import { buildPreview, buildStudent, csvFile, summerCohort } from "../../../../testing/weekly-import-data";
import { renderWithProviders } from "../../../../testing/render-app";

// Issue 29, "Import without traps": the wrong week, files that change nothing, errors that name
// their student, files in the wrong boxes.

vi.mock("../../../../lib/upload-with-progress", () => ({ uploadWithProgress: vi.fn() }));
const upload = vi.mocked(uploadWithProgress);

let calls: Array<{ path: string; form: FormData; options: UploadOptions }>;
let answer: (value: unknown) => void;

beforeEach(() => {
  calls = [];
  upload.mockImplementation((path: string, form: FormData, options: UploadOptions = {}) => {
    calls.push({ path, form, options });
    return new Promise((resolve) => {
      answer = resolve;
    });
  });
});

async function openModal() {
  signIn(buildUser({ role: "admin" }));
  mockFetch((url) => jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [summerCohort] }));
  renderWithProviders(
    <MemoryRouter>
      <CohortManagementSection />
    </MemoryRouter>,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Import Weekly Data for Cohort" }));
  const dialog = await screen.findByRole("dialog", { name: "Import Weekly Cohort Data" });
  await waitFor(() => expect((within(dialog).getByLabelText(/^Cohort/) as HTMLSelectElement).value).toBe("12"));
  return dialog;
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;
const choose = (dialog: HTMLElement, label: string, file: File) => fireEvent.change(field(dialog, label), { target: { files: [file] } });

async function press(dialog: HTMLElement, name: string) {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole("button", { name }));
  });
}

async function previewWith(dialog: HTMLElement, preview: ImportPreview, week = "2") {
  fireEvent.change(field(dialog, "Week number"), { target: { value: week } });
  choose(dialog, IMPORT_FILE_LABELS.attendanceReport, csvFile("meeting-attendance.csv"));
  choose(dialog, IMPORT_FILE_LABELS.progressReport, csvFile("progress.csv"));
  choose(dialog, IMPORT_FILE_LABELS.reflectionReport, csvFile("reflections.csv"));
  await press(dialog, "Preview Import");
  await act(async () => answer(preview));
  await within(dialog).findByText("Preview Upload Summary");
}

const wrongWeek = (students = [buildStudent(1)]) =>
  buildPreview(students, {
    week: { number: 2, start: "2026-07-06", end: "2026-07-12" },
    weekMismatch: { dateCount: 80, outsideCount: 80, suggested: { number: 3, start: "2026-07-13", end: "2026-07-19", dateCount: 80 } },
  });

describe("import without traps", () => {
  it("says once that the dates are of another week, fixes it in one click, and asks again before committing into the wrong week", async () => {
    const dialog = await openModal();
    await previewWith(dialog, wrongWeek());
    expect(within(dialog).getByTestId("preview-week").textContent).toBe("Week 2 · 6–12 Jul");
    expect(within(dialog).getByTestId("week-mismatch").textContent).toContain(
      "All 80 meeting dates fall in week 3 (13–19 Jul), not week 2 (6–12 Jul). Import as week 3?",
    );
    await press(dialog, "Import as week 3");
    expect(calls[1]?.path).toBe("/flag-upload/preview-weekly-data");
    expect(calls[1]?.form.get("weekNumber")).toBe("3");
    await act(async () => answer(wrongWeek()));

    // Confirm on a mismatched week asks once more; nothing is sent until the answer.
    await press(dialog, "Confirm & Save Data");
    expect(calls).toHaveLength(2);
    const ask = within(dialog).getByTestId("week-confirm");
    expect(ask.textContent).toContain("80 of 80 meeting dates are not in week 2 (6–12 Jul). Import them as week 2 anyway?");
    await press(dialog, "Yes, import as week 2");
    expect(calls[2]?.path).toBe("/flag-upload/commit-weekly-data");
  });

  it("says when the files change nothing, naming the import, and keeps Confirm disabled", async () => {
    const dialog = await openModal();
    const same = buildStudent(1, { isNewStudent: false, studentId: 4, weeklyData: { action: "none", flags: [], total_hours_reported: 3, reflection: null } });
    await previewWith(
      dialog,
      buildPreview([same], {
        unchanged: { cohortName: "Summer 2026", weekNumber: 2, lastImport: { at: "2026-07-17T09:30:00.000Z", by: "ms.jones" } },
      }),
    );
    expect(within(dialog).getByTestId("import-unchanged").textContent).toContain(
      "Week 2 of Summer 2026 was imported on 17 Jul 2026 by ms.jones; these files change nothing.",
    );
    const confirm = within(dialog).getByRole("button", { name: "Confirm & Save Data" }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
  });

  it("links each error to its student, lists the students with errors under Only errors, and shows school and team", async () => {
    const dialog = await openModal();
    const students = [buildStudent(1), buildStudent(2, { schoolName: "Eastwood Secondary", teamName: null }), buildStudent(3)];
    await previewWith(
      dialog,
      buildPreview(students, {
        errorsEncountered: [
          {
            studentId: null,
            studentName: "student 2",
            type: "parse",
            error: 'meetings.csv row 5 · Student 2 · Meeting Date "not a date" is not a date — this meeting is skipped',
            file: "meetings.csv",
            row: 5,
            column: "Meeting Date",
            value: "not a date",
          },
          { studentId: null, studentName: null, type: "parse", error: "meetings.csv row 9 · Name \"\" is empty — this row is skipped", file: "meetings.csv", row: 9, column: "Name", value: "" },
        ],
      }),
    );
    const places = within(dialog).getAllByTestId("preview-student-place").map((p) => p.textContent);
    expect(places).toEqual(["Riverside Academy · Team Blue", "Eastwood Secondary · no team", "Riverside Academy · Team Blue"]);

    fireEvent.click(within(dialog).getByLabelText("Only errors"));
    expect(within(dialog).getAllByTestId("preview-student").map((r) => r.textContent?.slice(0, 9))).toEqual(["Student 2"]);
    expect(within(dialog).getByTestId("errors-without-student").textContent).toMatch(/^1 error is of a row whose student is not in this list/);
    fireEvent.click(within(dialog).getByLabelText("Only errors"));

    fireEvent.click(within(dialog).getByRole("button", { name: "Show Student 2" }));
    expect(within(dialog).getAllByTestId("preview-student")).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole("button", { name: /^Show all students/ }));
    expect(within(dialog).getAllByTestId("preview-student")).toHaveLength(3);
  });

  it("proposes the week the meeting report's dates fall in, until a week is typed", async () => {
    const dialog = await openModal();
    const before = field(dialog, "Week number").value;
    const meeting = csvFile(
      "meeting-attendance.csv",
      "First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status\nA,B,,Riverside Academy,,2026-07-14,Mentor,Present\nC,D,,Riverside Academy,,2026-07-16,Advisor,Late\n",
    );
    choose(dialog, IMPORT_FILE_LABELS.attendanceReport, meeting);
    await waitFor(() => expect(field(dialog, "Week number").value).toBe("3"));
    expect(before).not.toBe("3");
    expect(within(dialog).getByTestId("import-week-label").textContent).toBe("Week 3 · 13–19 Jul");
    expect(within(dialog).getByTestId("import-week-source").textContent).toBe("(read from the meeting dates in the file)");
    fireEvent.change(field(dialog, "Week number"), { target: { value: "4" } });
    expect(within(dialog).queryByTestId("import-week-source")).toBeNull();
  });

  it("recognises a file in the wrong box by its header row and moves it in one click", async () => {
    const dialog = await openModal();
    const progress = csvFile("export (3).csv", "Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates\nA B,,,5,0,0\n");
    choose(dialog, IMPORT_FILE_LABELS.attendanceReport, progress);
    const note = await within(dialog).findByTestId("misplaced-attendanceReport");
    expect(note.textContent).toContain("This looks like the progress report, not the meeting attendance report.");
    fireEvent.click(within(note).getByRole("button", { name: "Move to Progress report" }));
    const box = within(dialog).getByTestId(`drop-${IMPORT_FILE_LABELS.progressReport}`);
    expect(within(box).getByText(/^export \(3\)\.csv/)).toBeTruthy();
    await waitFor(() => expect(within(dialog).queryByTestId("misplaced-attendanceReport")).toBeNull());
    expect(within(dialog).queryByTestId("misplaced-progressReport")).toBeNull();
  });
});
