import { FLAG_FILE_LABELS, FLAG_UPLOAD_MESSAGES, type ProcessFlagsResponse } from "@tally/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { FlagValidationError, type ProcessFlagsOptions, processFlags } from "../api/process-flags";
import { buildResult, buildRow, confirmed, csv, flagsCohort, rowErrorsOf } from "../../../testing/flag-upload-data";

vi.mock("../api/process-flags", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../api/process-flags")>()),
  processFlags: vi.fn(),
}));
const process = vi.mocked(processFlags);

/** Each process call waits for the test to answer, so every state can be seen. */
let answer: (value: ProcessFlagsResponse) => void;
let fail: (error: unknown) => void;
let lastOptions: ProcessFlagsOptions;

beforeEach(() => {
  process.mockImplementation((_input, options = {}) => {
    lastOptions = options;
    return new Promise((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  });
});

type Api = { cohorts?: () => Response; confirm?: (body: unknown) => Response };

function serve(api: Api = {}) {
  return mockFetch((url, init) => {
    if (url.startsWith("/api/cohorts/active")) return api.cohorts?.() ?? jsonResponse(200, { data: [flagsCohort] });
    if (url.startsWith("/api/flag-upload/confirm-flag-import")) {
      return api.confirm?.(JSON.parse(String(init.body))) ?? jsonResponse(200, confirmed);
    }
    return jsonResponse(200, { data: [] });
  });
}

async function openAsSuperAdmin(api: Api = {}) {
  signIn(buildUser({ role: "super_admin" }));
  const fetch = serve(api);
  renderApp("/admin/flag-uploader");
  await screen.findByRole("heading", { name: "Flag Uploader" });
  return fetch;
}

async function chooseCohort() {
  const select = (await screen.findByLabelText("Cohort")) as HTMLSelectElement;
  fireEvent.change(select, { target: { value: String(flagsCohort.id) } });
  return screen.findByRole("region", { name: /Reports for Autumn Interns/ });
}

function attach(panel: HTMLElement, files: Record<string, File>) {
  for (const [label, file] of Object.entries(files)) {
    fireEvent.change(within(panel).getByLabelText(new RegExp(`^${escape(label)}`)), { target: { files: [file] } });
  }
}
const escape = (text: string) => text.replace(/[()]/g, "\\$&");

function attachAll(panel: HTMLElement) {
  attach(panel, {
    [FLAG_FILE_LABELS.progressReport]: csv("progress.csv"),
    [FLAG_FILE_LABELS.reflectionReport]: csv("reflections.csv"),
    [FLAG_FILE_LABELS.attendanceReport]: csv("crm-attendance.csv"),
  });
}

async function processWith(panel: HTMLElement) {
  attachAll(panel);
  await act(async () => {
    fireEvent.click(within(panel).getByRole("button", { name: "Process" }));
  });
}

const status = () => screen.getByTestId("flag-upload-status").textContent;
/** A flags cell: its chips' texts, or its text when it has none. */
function flagCell(cell: HTMLElement) {
  const chips = within(cell).queryAllByRole("listitem").map((chip) => chip.textContent);
  return chips.length > 0 ? chips : cell.textContent;
}
const flagTable = () => screen.getByRole("table", { name: "Calculated flags" });

describe("Flag Uploader page", () => {
  it("refuses an admin with the spec's Access Denied text, on the page's own address", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetch = serve();
    const { router } = renderApp("/admin/flag-uploader");
    expect(await screen.findByRole("heading", { name: FLAG_UPLOAD_MESSAGES.accessDeniedTitle })).toBeTruthy();
    expect(screen.getByText(FLAG_UPLOAD_MESSAGES.accessDenied)).toBeTruthy();
    expect(router.state.location.pathname).toBe("/admin/flag-uploader");
    expect(fetch.mock.calls.some(([url]) => String(url).includes("/cohorts/active"))).toBe(false);
  });

  it("shows a spinner, then the cohorts; asks for a cohort; offers its weeks defaulting to today's week", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 25, 12)); // day 23 of a cohort starting 2026-11-02: week 4
    signIn(buildUser({ role: "super_admin" }));
    serve();
    renderApp("/admin/flag-uploader");
    expect(await screen.findByLabelText("Loading cohorts")).toBeTruthy();
    const select = (await screen.findByLabelText("Cohort")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["-- Select Cohort --", "Autumn Interns"]);
    expect(screen.getByText(FLAG_UPLOAD_MESSAGES.selectCohort)).toBeTruthy();
    expect(screen.queryByLabelText("Week Number")).toBeNull();
    await chooseCohort();
    const week = screen.getByLabelText("Week Number") as HTMLSelectElement;
    expect([...week.options].map((o) => o.textContent)).toEqual(["Week 1", "Week 2", "Week 3", "Week 4", "Week 5", "Week 6"]);
    expect(week.value).toBe("4");
    expect(screen.queryByText(FLAG_UPLOAD_MESSAGES.selectCohort)).toBeNull();
  });

  it("proposes the programme calendar's week: week 1 on the cohort's 7th day, week 2 on its 8th, as the weekly import reads that day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    signIn(buildUser({ role: "super_admin" }));
    serve();
    renderApp("/admin/flag-uploader");
    vi.setSystemTime(new Date(2026, 10, 8, 12)); // day 6 of a cohort starting 2026-11-02
    await chooseCohort();
    expect((screen.getByLabelText("Week Number") as HTMLSelectElement).value).toBe("1");
    vi.setSystemTime(new Date(2026, 10, 9, 12)); // day 7, the 8th day: week 2 begins (week N is days 7(N−1) … 7N−1)
    fireEvent.change(screen.getByLabelText("Cohort"), { target: { value: "" } });
    await chooseCohort();
    expect((screen.getByLabelText("Week Number") as HTMLSelectElement).value).toBe("2");
  });

  it("shows an error panel when the cohorts fail to load, and Retry loads them", async () => {
    let calls = 0;
    await openAsSuperAdmin({
      cohorts: () => (++calls === 1 ? jsonResponse(500, { error: "boom", code: "INTERNAL" }) : jsonResponse(200, { data: [flagsCohort] })),
    });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Failed to load cohorts. Please try again.");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByLabelText("Cohort")).toBeTruthy();
    expect(calls).toBe(2);
  });

  it("refuses a file that is not a CSV and asks for all three files", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    attach(panel, { [FLAG_FILE_LABELS.progressReport]: new File(["x"], "progress.xlsx", { type: "application/vnd.ms-excel" }) });
    expect(within(panel).getByText(FLAG_UPLOAD_MESSAGES.invalidFileType)).toBeTruthy();
    // The contract's rule, as the server applies it: another extension is refused whatever the type says.
    attach(panel, { [FLAG_FILE_LABELS.reflectionReport]: new File(["x"], "reflections.txt", { type: "text/csv" }) });
    expect(within(panel).getAllByText(FLAG_UPLOAD_MESSAGES.invalidFileType)).toHaveLength(2);
    attach(panel, { [FLAG_FILE_LABELS.reflectionReport]: csv("reflections.csv") });
    fireEvent.click(within(panel).getByRole("button", { name: "Process" }));
    expect(within(panel).getByRole("alert").textContent).toBe(FLAG_UPLOAD_MESSAGES.allFilesRequired);
    expect(process).not.toHaveBeenCalled();
  });

  it("takes a file dropped on a report's area", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    const area = within(panel).getByTestId(`drop-${FLAG_FILE_LABELS.attendanceReport}`);
    fireEvent.drop(area, { dataTransfer: { files: [csv("crm-attendance.csv")] } });
    expect(within(area).getByTestId("chosen-file").textContent).toBe("crm-attendance.csv");
    fireEvent.drop(area, { dataTransfer: { files: [new File(["x"], "crm.pdf", { type: "application/pdf" })] } });
    expect(within(area).getByText(FLAG_UPLOAD_MESSAGES.invalidFileType)).toBeTruthy();
    expect(within(area).queryByTestId("chosen-file")).toBeNull();
  });

  it("goes uploading → processing → verifying, then imports only the rows left checked", async () => {
    const confirmBodies: unknown[] = [];
    await openAsSuperAdmin({
      confirm: (body) => {
        confirmBodies.push(body);
        return jsonResponse(200, confirmed);
      },
    });
    const panel = await chooseCohort();
    await processWith(panel);
    expect(status()).toBe("Uploading reports...");
    expect(process.mock.calls[0]![0]).toMatchObject({ cohortId: 7, currentWeek: expect.any(Number) });
    act(() => lastOptions.onStage?.("processing"));
    expect(status()).toBe("Processing reports...");
    const result = buildResult();
    await act(async () => answer(result));
    expect(status()).toBe("Verify the calculated flags: 3 students matched.");
    const heading = screen.getByRole("heading", { name: "Verify calculated flags" });
    expect(document.activeElement).toBe(heading);

    const table = screen.getByRole("table", { name: "Calculated flags" });
    const headers = within(table).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers.slice(1)).toEqual(["Name", "Benefit Assignment ID", "Calculated flags ↕", "Matched by"]);
    const rows = within(table).getAllByRole("row").slice(1);
    // One chip (a list item) per flag, never a joined sentence; "No flags" when there are none.
    expect(rows.map((r) => within(r).getAllByRole("cell").slice(1).map((c, i) => (i === 2 ? flagCell(c) : c.textContent)))).toEqual([
      ["Dmitri Silva", "BA-100000", ["Low wellbeing (1/5)", "Absent from 1 session(s)"], "Benefit Assignment ID"],
      ["Kwame Patel", "BA-100001", "No flags", "E-mail"],
      ["Ana Ruiz", "BA-100002", ["Low wellbeing (2/5)"], "Name"],
    ]);
    expect(within(rows[0]!).getByRole("list", { name: "2 flags" })).toBeTruthy();
    // The count and Import sit together in the footer that stays in view.
    const footer = screen.getByTestId("verification-footer");
    expect(footer.style.position).toBe("sticky");
    expect(within(footer).getByTestId("selection-count").textContent).toBe("3 of 3 students checked for import");
    expect(within(footer).getByText("2 of them with flags")).toBeTruthy();
    fireEvent.click(within(table).getByLabelText("Import Kwame Patel"));
    expect(screen.getByTestId("selection-count").textContent).toBe("2 of 3 students checked for import");
    expect(within(footer).getByRole("button", { name: "Import 2 students" })).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Import 2 students" }));
    });
    expect(await screen.findByText(FLAG_UPLOAD_MESSAGES.imported)).toBeTruthy();
    expect(screen.getByTestId("flag-import-success").textContent).toContain("Students imported: 2");
    expect(confirmBodies).toEqual([
      { runId: "run-1", cohortId: 7, currentWeek: expect.any(Number), verificationData: [result.data[0], result.data[2]] },
    ]);
  });

  it("warns of Benefit Assignment ID conflicts with both students and the ID, linked, before and after the import, never in the success box", async () => {
    const conflict = { benefitAssignmentId: "BA-100002", student: { id: 3, name: "Ana Ruiz" }, heldBy: { id: 88, name: "Maria Lopez" } };
    await openAsSuperAdmin({ confirm: () => jsonResponse(200, { ...confirmed, summary: { ...confirmed.summary, benefitAssignmentIdsHeldElsewhere: 1 }, benefitIdConflicts: [conflict] }) });
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => answer(buildResult({ benefitIdConflicts: [conflict] })));
    const before = screen.getByTestId("benefit-id-conflicts");
    expect(within(before).getByText("1 Benefit Assignment ID already held by another student")).toBeTruthy();
    expect(before.textContent).toContain("BA-100002 is held by Maria Lopez; the CRM report gives it to Ana Ruiz.");
    expect(within(before).getByRole("link", { name: "Maria Lopez" }).getAttribute("href")).toBe("/dashboard?student=88");
    expect(within(before).getByRole("link", { name: "Ana Ruiz" }).getAttribute("href")).toBe("/dashboard?student=3");

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Import 3 students" }));
    });
    const success = await screen.findByTestId("flag-import-success");
    expect(success.textContent).not.toMatch(/BA-100002|Maria Lopez|holds? the ID/);
    const after = screen.getByTestId("benefit-id-conflicts");
    expect(success.contains(after)).toBe(false);
    expect(after.textContent).toContain("was imported without one");
    expect(within(after).getByRole("link", { name: "Ana Ruiz" })).toBeTruthy();
  });

  it("lists the unmatched rows grouped by reason", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => answer(buildResult()));
    expect(screen.getByRole("heading", { name: "Unmatched rows (3)" })).toBeTruthy();
    const crm = screen.getByRole("table", { name: "In the CRM report but not in this cohort (2)" });
    expect(within(crm).getAllByRole("row").slice(1).map((r) => r.textContent)).toEqual([
      "attendanceReport12Zed Strangerzed@example.org",
      "attendanceReport30Yu Other—",
    ]);
    expect(screen.getByRole("table", { name: "In the progress report but not in the CRM report (1)" })).toBeTruthy();
  });

  it("shows an unmatched CRM row without a name as '—', under the reason that names its Benefit Assignment ID", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    const reason = "in the CRM report without a name, and no student of this cohort has its Benefit Assignment ID (BA-99)";
    await act(async () => answer(buildResult({ unmatched: [{ file: "crm.csv", row: 6, name: "", email: null, reason }] })));
    const table = screen.getByRole("table", { name: `${reason.charAt(0).toUpperCase()}${reason.slice(1)} (1)` });
    expect(within(table).getAllByRole("row").slice(1).map((r) => r.textContent)).toEqual(["crm.csv6——"]);
  });

  it("shows the server's validation errors joined after 'File Validation Errors: '", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    const errors = ["progress.csv: missing column Progress", "crm-attendance.csv row 4: Benefit Assignment ID is empty"];
    await act(async () => fail(new FlagValidationError(400, "VALIDATION", "Invalid files", errors)));
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(`File Validation Errors: ${errors.join("; ")}`);
    expect(document.activeElement).toBe(alert);
    expect(within(panel).getByRole("button", { name: "Process" })).toBeTruthy();
  });

  it("shows the row errors of a processed run above the table, and still imports the good rows", async () => {
    const confirmBodies: unknown[] = [];
    await openAsSuperAdmin({
      confirm: (body) => {
        confirmBodies.push(body);
        return jsonResponse(200, confirmed);
      },
    });
    const panel = await chooseCohort();
    await processWith(panel);
    const validationErrors = [
      'crm-attendance.csv row 7, Benefit Assignment ID "": is empty (every row needs a Benefit Assignment ID) — this session of Maria Lopez is not counted',
      'reflections.csv row 4, Hours worked this week "about ten": is not a number of hours from 0 to 168 — Low hours is not decided for Ana Ruiz',
    ];
    const result = buildResult({ validationErrors, rowErrors: rowErrorsOf(validationErrors), rowErrorCount: 2 });
    await act(async () => answer(result));

    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(`File Validation Errors: ${validationErrors.join("; ")}`);
    expect(alert.textContent).toContain("The other rows were processed");
    // Beside the table, not instead of it: the errors come first, then the rows to verify.
    const table = flagTable();
    expect(alert.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(status()).toBe("Verify the calculated flags: 3 students matched.");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Import 3 students" }));
    });
    expect(await screen.findByText(FLAG_UPLOAD_MESSAGES.imported)).toBeTruthy();
    expect(confirmBodies).toEqual([{ runId: "run-1", cohortId: 7, currentWeek: expect.any(Number), verificationData: result.data }]);
  });

  it("lists the first row errors and shows the rest on request, saying how many the server left out", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    const validationErrors = Array.from({ length: 30 }, (_, i) => `reflections.csv row ${i + 2}, Hours "x": is not a number — Low hours is not decided for S${i}`);
    await act(async () => answer(buildResult({ validationErrors, rowErrors: rowErrorsOf(validationErrors), rowErrorCount: 1_500 })));
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(validationErrors.slice(0, 10).join("; "));
    expect(alert.textContent).not.toContain(validationErrors[10]);
    expect(alert.textContent).toContain("1,500 row errors in all");
    fireEvent.click(within(alert).getByRole("button", { name: "Show all 30 listed" }));
    expect(alert.textContent).toContain(validationErrors.join("; "));
    expect(flagTable()).toBeTruthy();
  });

  it("shows the fallback text when processing fails without a server message", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => fail(new TypeError("offline")));
    expect(screen.getByRole("alert").textContent).toContain(FLAG_UPLOAD_MESSAGES.uploadFailed);
  });

  it("Cancel aborts the request in flight and returns to idle; its late reply changes nothing", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    const signal = lastOptions.signal!;
    const cancel = within(panel).getByRole("button", { name: "Cancel" });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    expect(signal.aborted).toBe(true);
    expect(status()).toBe("Choose the three reports, then process them.");
    expect(document.activeElement).toBe(within(panel).getByRole("button", { name: "Process" }));
    await act(async () => answer(buildResult()));
    expect(screen.queryByRole("table", { name: "Calculated flags" })).toBeNull();
    expect(within(panel).getByRole("button", { name: "Process" })).toBeTruthy();
  });

  it("says so when nothing matched, with no Import", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => answer(buildResult({ data: [] })));
    expect(screen.getByText(FLAG_UPLOAD_MESSAGES.nothingMatched)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
  });

  it("shows 'An error occurred during import.' with the server's reason", async () => {
    await openAsSuperAdmin({ confirm: () => jsonResponse(409, { error: "This run has expired. Process the reports again.", code: "RUN_EXPIRED" }) });
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => answer(buildResult()));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Import 3 students" }));
    });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(FLAG_UPLOAD_MESSAGES.importFailed);
    expect(alert.textContent).toContain("This run has expired. Process the reports again.");
  });

  it("sorts by flag count, filters to flagged rows and pages through a large week", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    const data = Array.from({ length: 120 }, (_, i) =>
      buildRow({ studentId: i + 1, name: `Student ${i + 1}`, calculated_flags: Array.from({ length: i % 3 }, (_flag, k) => `Flag ${k}`) }),
    );
    await act(async () => answer(buildResult({ data })));
    const names = () => within(flagTable()).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell")[1]!.textContent);
    expect(names()).toHaveLength(50);
    expect(screen.getByText("Showing 1–50 of 120")).toBeTruthy();

    fireEvent.click(within(flagTable()).getByRole("button", { name: /Calculated flags/ }));
    expect(within(flagTable()).getAllByRole("columnheader")[3]!.getAttribute("aria-sort")).toBe("descending");
    expect(names().slice(0, 3)).toEqual(["Student 3", "Student 6", "Student 9"]);

    fireEvent.click(screen.getByRole("switch", { name: "Only flagged" }));
    expect(screen.getByText("Showing 1–50 of 80")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    expect(screen.getByText("Showing 51–80 of 80")).toBeTruthy();

    fireEvent.click(within(flagTable()).getByLabelText("Check all students"));
    expect(screen.getByTestId("selection-count").textContent).toBe("0 of 120 students checked for import");
    expect((screen.getByRole("button", { name: "Import 0 students" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("a change of week drops a processed run", async () => {
    await openAsSuperAdmin();
    const panel = await chooseCohort();
    await processWith(panel);
    await act(async () => answer(buildResult()));
    expect(screen.getByRole("table", { name: "Calculated flags" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Week Number"), { target: { value: "2" } });
    await waitFor(() => expect(screen.queryByRole("table", { name: "Calculated flags" })).toBeNull());
    expect(screen.getByRole("region", { name: "Reports for Autumn Interns, Week 2" })).toBeTruthy();
  });
});
