import { IMPORT_FILE_LABELS, type ImportPreview } from "@tally/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type UploadOptions, uploadWithProgress } from "../../../../lib/upload-with-progress";
import { jsonResponse, mockFetch } from "../../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../../testing/signed-in-user";
import { CohortManagementSection } from "../cohort-management-section";
import { buildPreview, buildStudent, csvFile, summerCohort } from "../../../../testing/weekly-import-data";
import { renderWithProviders } from "../../../../testing/render-app";

vi.mock("../../../../lib/upload-with-progress", () => ({ uploadWithProgress: vi.fn() }));
const upload = vi.mocked(uploadWithProgress);

type Call = { path: string; form: FormData; options: UploadOptions };
let calls: Call[];
/** Each upload waits for the test to answer it, so the busy states can be seen. */
let answer: (value: unknown) => void;
let fail: (error: unknown) => void;

beforeEach(() => {
  calls = [];
  upload.mockImplementation((path: string, form: FormData, options: UploadOptions = {}) => {
    calls.push({ path, form, options });
    return new Promise((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  });
});

function renderSection() {
  signIn(buildUser({ role: "admin" }));
  mockFetch((url) => jsonResponse(200, { data: url.startsWith("/api/imports") ? [] : [summerCohort] }));
  // In a router: the success message links to the dashboard.
  renderWithProviders(
    <MemoryRouter>
      <CohortManagementSection />
    </MemoryRouter>,
  );
}

async function openModal() {
  fireEvent.click(await screen.findByRole("button", { name: "Import Weekly Data for Cohort" }));
  return screen.findByRole("dialog", { name: "Import Weekly Cohort Data" });
}

/** Clicks and lets the mutation start (it calls its function after a tick). */
async function press(dialog: HTMLElement, name: string) {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole("button", { name }));
  });
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;

function chooseFile(dialog: HTMLElement, label: string, file: File) {
  fireEvent.change(field(dialog, label), { target: { files: [file] } });
}

function fillNewCohort(dialog: HTMLElement) {
  fireEvent.click(within(dialog).getByLabelText("New cohort"));
  fireEvent.change(field(dialog, "Cohort name"), { target: { value: "Summer Week 3 Test" } });
  fireEvent.change(field(dialog, "Program type"), { target: { value: "Internship (6 week)" } });
  fireEvent.change(field(dialog, "Start date"), { target: { value: "2026-06-29" } });
  fireEvent.change(field(dialog, "End date"), { target: { value: "2026-08-10" } });
  fireEvent.change(field(dialog, "Total expected hours"), { target: { value: "120" } });
  fireEvent.change(field(dialog, "Week number"), { target: { value: "3" } });
  chooseFile(dialog, IMPORT_FILE_LABELS.attendanceReport, csvFile("meeting-attendance.csv"));
  chooseFile(dialog, IMPORT_FILE_LABELS.progressReport, csvFile("progress.csv"));
  chooseFile(dialog, IMPORT_FILE_LABELS.reflectionReport, csvFile("reflections.csv"));
}

async function previewWith(dialog: HTMLElement, preview: ImportPreview) {
  await press(dialog, "Preview Import");
  await act(async () => answer(preview));
  return within(dialog).findByText("Preview Upload Summary");
}

describe("Import Weekly Cohort Data", () => {
  it("names every missing field and file, refuses a non-CSV and an over-size file, and sends nothing", async () => {
    renderSection();
    const dialog = await openModal();
    fireEvent.click(within(dialog).getByLabelText("New cohort"));
    fireEvent.change(field(dialog, "Cohort name"), { target: { value: "Summer" } });
    await press(dialog, "Preview Import");
    for (const text of [
      "Select a program type",
      "Start date is required",
      "End date is required",
      "Total expected hours is required",
      "Meeting attendance report is required",
      "Progress report is required",
      "Reflection report is required",
    ]) {
      expect(within(dialog).getByText(text)).toBeTruthy();
    }
    expect(within(dialog).queryByText("Cohort name is required")).toBeNull();
    // The cursor goes to the first field to mend.
    expect(document.activeElement).toBe(field(dialog, "Program type"));
    chooseFile(dialog, IMPORT_FILE_LABELS.progressReport, new File(["x"], "progress.xlsx", { type: "application/vnd.ms-excel" }));
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], "reflections.csv", { type: "text/csv" });
    chooseFile(dialog, IMPORT_FILE_LABELS.reflectionReport, big);
    expect(within(dialog).getByText("reflections.csv (10.0 MB)")).toBeTruthy();
    await press(dialog, "Preview Import");
    expect(within(dialog).getByText("Progress report must be a CSV file (.csv)")).toBeTruthy();
    expect(within(dialog).getByText("Reflection report is larger than 10 MB")).toBeTruthy();
    // The error is tied to its input, so a screen reader reads it with the field.
    const progress = field(dialog, IMPORT_FILE_LABELS.progressReport);
    expect(progress.getAttribute("aria-invalid")).toBe("true");
    const described = progress.getAttribute("aria-describedby")?.split(" ").map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain("Progress report must be a CSV file (.csv)");
    expect(upload).not.toHaveBeenCalled();
  });

  it("takes a file dropped on a report's area and shows its name and size", async () => {
    renderSection();
    const dialog = await openModal();
    const area = within(dialog).getByTestId(`drop-${IMPORT_FILE_LABELS.progressReport}`);
    expect(within(area).getByText("No file chosen")).toBeTruthy();
    fireEvent.dragOver(area, { dataTransfer: { files: [] } });
    fireEvent.drop(area, { dataTransfer: { files: [csvFile("progress-week3.csv", "x".repeat(2048))] } });
    expect(within(area).getByText("progress-week3.csv (2.0 KB)")).toBeTruthy();
  });

  it("previews a new cohort with progress, lists the students, and commits with a success message listing the counts", async () => {
    renderSection();
    const dialog = await openModal();
    fillNewCohort(dialog);
    await press(dialog, "Preview Import");
    expect(within(dialog).getByRole("button", { name: "Processing..." })).toBeTruthy();
    const [call] = calls;
    expect(call?.path).toBe("/flag-upload/preview-weekly-data");
    const sent = Object.fromEntries([...(call?.form.entries() ?? [])].map(([k, v]) => [k, typeof v === "string" ? v : v.name]));
    expect(sent).toEqual({
      cohortName: "Summer Week 3 Test",
      programType: "Internship (6 week)",
      startDate: "2026-06-29",
      endDate: "2026-08-10",
      totalExpectedHours: "120",
      weekNumber: "3",
      attendanceReport: "meeting-attendance.csv",
      progressReport: "progress.csv",
      reflectionReport: "reflections.csv",
    });
    act(() => call?.options.onProgress?.({ kind: "upload", percent: 40 }));
    expect(within(dialog).getByText("Uploading files… 40%")).toBeTruthy();
    act(() => call?.options.onProgress?.({ kind: "stage", stage: "matching" }));
    expect(within(dialog).getByText("Matching students…").getAttribute("aria-live")).toBe("polite");

    const long = "x".repeat(69) + "yz and more text";
    const students = [
      buildStudent(1, { weeklyData: { action: "created", flags: [{ code: "LOW_HOURS", text: "Low hours (1.5 of 20 expected)" }], total_hours_reported: 1.5, reflection: long } }),
      buildStudent(2, { studentId: 77, isNewStudent: false }),
    ];
    await act(async () =>
      answer(
        buildPreview(students, {
          errorsEncountered: [
            { studentId: null, studentName: "Ghost Writer", type: "unknown_school", error: 'meeting-attendance.csv, row 9, column School: unknown school "Nowhere High"', file: "meeting-attendance.csv", row: 9, column: "School", value: "Nowhere High" },
          ],
          warnings: [{ type: "date_outside_week", message: "meeting-attendance.csv, row 4: 2026-07-30 is outside week 3" }],
        }),
      ),
    );
    expect(await within(dialog).findByText("Preview Upload Summary")).toBeTruthy();
    expect(within(dialog).getByTestId("stat-Students in files").textContent).toBe("2");
    expect(within(dialog).getByTestId("stat-Attendance created").textContent).toBe("4");
    expect(within(dialog).getByText('meeting-attendance.csv, row 9, column School: unknown school "Nowhere High"')).toBeTruthy();
    expect(within(dialog).getByText("meeting-attendance.csv, row 4: 2026-07-30 is outside week 3")).toBeTruthy();
    const rows = within(dialog).getAllByTestId("preview-student");
    expect(within(rows[0]!).getByText("Low hours (1.5 of 20 expected)")).toBeTruthy();
    expect(within(rows[0]!).getByText(`${"x".repeat(69)}y…`)).toBeTruthy();
    expect(within(rows[0]!).getByText("New")).toBeTruthy();
    expect(within(rows[1]!).getByText("Existing")).toBeTruthy();
    expect(within(rows[1]!).getByText("ID 77")).toBeTruthy();
    expect(within(rows[1]!).getByText("No flags")).toBeTruthy();
    expect(rows[1]!.textContent).toContain("2026-07-16 · Late · Advisor · created");

    await press(dialog, "Confirm & Save Data");
    expect(within(dialog).getByRole("button", { name: "Committing..." })).toBeTruthy();
    expect(calls[1]?.path).toBe("/flag-upload/commit-weekly-data");
    expect(calls[1]?.form.get("cohortName")).toBe("Summer Week 3 Test");
    await act(async () => answer({ ...buildPreview(students), batchId: 3, cohortId: 99 }));
    const banner = await screen.findByTestId("success-banner");
    expect(banner.textContent).toContain(
      "Week 3 of Summer Week 3 Test imported: 2 students (1 new), 4 attendance records created, 0 updated, 2 weekly records created, 0 updated. No row was skipped.",
    );
    // The dashboard, filtered to the cohort just imported.
    expect(within(banner).getByRole("link", { name: "Open the dashboard for this cohort" }).getAttribute("href")).toBe("/dashboard?cohort=99");
    expect(screen.queryByRole("dialog", { name: "Import Weekly Cohort Data" })).toBeNull();
  });

  it("shows the server's message when the preview or the commit fails, and refuses to commit an empty preview", async () => {
    renderSection();
    const dialog = await openModal();
    fillNewCohort(dialog);
    await press(dialog, "Preview Import");
    await act(async () => fail(new Error("progress.csv: missing column Progress")));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Preview generation failed: progress.csv: missing column Progress");

    await previewWith(dialog, buildPreview([]));
    await press(dialog, "Confirm & Save Data");
    expect(within(dialog).getByRole("alert").textContent).toBe("Error: No data to commit.");
    expect(calls).toHaveLength(2);

    // Back to the form keeps what was typed and chosen.
    fireEvent.click(within(dialog).getByRole("button", { name: "Back to Edit Form" }));
    expect(field(dialog, "Cohort name").value).toBe("Summer Week 3 Test");
    expect(within(dialog).getByText(/^meeting-attendance\.csv/)).toBeTruthy();
    await previewWith(dialog, buildPreview([buildStudent(1)]));
    await press(dialog, "Confirm & Save Data");
    await act(async () => fail(new Error("This cohort was changed meanwhile")));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Commit failed: This cohort was changed meanwhile");
  });

  it("opens on the running cohort, its week the last completed week with its dates", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 6, 15, 12)); // 15 July: day 16 of a cohort starting 29 June, week 2 (6–12 Jul) over
    renderSection();
    const dialog = await openModal();
    expect((within(dialog).getByLabelText("Existing cohort") as HTMLInputElement).checked).toBe(true);
    expect(field(dialog, "Cohort").value).toBe("12");
    expect(field(dialog, "Week number").value).toBe("2");
    expect(within(dialog).getByTestId("import-week-label").textContent).toBe("Week 2 · 6–12 Jul");
    expect(within(dialog).getByText("Week 1 to 6 of this cohort")).toBeTruthy();
    fireEvent.change(field(dialog, "Week number"), { target: { value: "7" } });
    chooseFile(dialog, IMPORT_FILE_LABELS.attendanceReport, csvFile("meeting-attendance.csv"));
    chooseFile(dialog, IMPORT_FILE_LABELS.progressReport, csvFile("progress.csv"));
    chooseFile(dialog, IMPORT_FILE_LABELS.reflectionReport, csvFile("reflections.csv"));
    await press(dialog, "Preview Import");
    expect(within(dialog).getByText("Week number must be at most 6, the cohort's last week")).toBeTruthy();
    fireEvent.change(field(dialog, "Week number"), { target: { value: "3" } });
    expect(within(dialog).getByTestId("import-week-label").textContent).toBe("Week 3 · 13–19 Jul");
    await press(dialog, "Preview Import");
    expect(calls[0]?.form.get("cohortId")).toBe("12");
    expect(calls[0]?.form.get("weekNumber")).toBe("3");
    expect(calls[0]?.form.has("cohortName")).toBe(false);
    vi.useRealTimers();
  });

  it("filters to changes and pages a long list 50 at a time", async () => {
    renderSection();
    const dialog = await openModal();
    fillNewCohort(dialog);
    const same = { action: "none" as const, flags: [], total_hours_reported: 10, reflection: null };
    const students = Array.from({ length: 120 }, (_, i) =>
      i % 3 === 0
        ? buildStudent(i, { studentId: i + 1, isNewStudent: false, weeklyData: same, attendance: [] })
        : buildStudent(i, { studentId: i + 1, isNewStudent: false }),
    );
    await previewWith(dialog, buildPreview(students, {
      errorsEncountered: [{ studentId: 3, studentName: "Student 3", type: "parse", error: "progress.csv, row 4, column Progress: not a number", file: "progress.csv", row: 4, column: "Progress", value: "abc" }],
    }));
    expect(within(dialog).getByText("Showing 1–50 of 120 students")).toBeTruthy();
    expect(within(dialog).getAllByTestId("preview-student")).toHaveLength(50);
    fireEvent.click(within(dialog).getByRole("button", { name: "Page 3" }));
    expect(within(dialog).getAllByTestId("preview-student")).toHaveLength(20);
    fireEvent.click(within(dialog).getByLabelText("Only changes"));
    expect(within(dialog).getByText("Showing 1–50 of 80 students")).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText("Only changes"));
    fireEvent.click(within(dialog).getByLabelText("Only errors"));
    expect(within(dialog).getByText("Showing 1–1 of 1 student")).toBeTruthy();
    expect(within(dialog).getByTestId("preview-student").textContent).toContain("Student 2");
  });
});
