import { localDay, REPORT_MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { headerOf, jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { pickComboboxOption } from "../../../testing/combobox";
import { renderApp } from "../../../testing/render-app";
import type { ReportFilters } from "../api/report-filters";
import { callsTo, mockDashboardApi } from "../../../testing/fake-dashboard-api";
import { ExportMenu } from "./export-menu";

// The first render loads the lazy page and several queries.
const SLOW = { timeout: 4000 };

let saved: Array<{ name: string; blob: Blob }>;

beforeEach(() => {
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    const url = `blob:${blobs.size}`;
    blobs.set(url, b as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute("href") ?? "")! });
  });
});

function fileResponse(body: string, type: string, name: string): Response {
  return new Response(body, { status: 200, headers: { "Content-Type": type, "Content-Disposition": `attachment; filename="${name}"` } });
}

/** Opens the Export menu and clicks one of its items. */
async function choose(item: "Download PDF" | "E-mail report" | "Download CSV") {
  const button = await screen.findByRole("button", { name: "Export" }, SLOW);
  fireEvent.click(button);
  await waitFor(() => expect(button.getAttribute("aria-expanded")).toBe("true"));
  const menu = await screen.findByRole("menu", { hidden: true });
  fireEvent.click(within(menu).getByRole("menuitem", { name: item, hidden: true }));
}

const NORTH: ReportFilters = { schoolId: 1, cohortId: null, teamId: null, schoolName: "North High" };

function renderMenu(report: ReportFilters = NORTH) {
  return renderApp("/x", [{ path: "/x", element: <ExportMenu user={buildUser({ role: "admin" })} report={report} /> }]);
}

/** A fetch that holds its reply until release() is called. */
function heldFetch(reply: () => Response) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchMock = mockFetch(async () => {
    await gate;
    return reply();
  });
  return { fetchMock, release };
}

describe("the Export menu", () => {
  it("offers the three exports, and downloads the PDF of the dashboard's school with its names and totals", async () => {
    signIn(buildUser({ role: "admin" }), "tok-9");
    const dashboard = mockDashboardApi();
    renderApp("/dashboard?cohort=all");
    await screen.findByRole("heading", { name: "Students (31)" }, SLOW);
    const school = screen.getByRole("combobox", { name: "School" });
    await pickComboboxOption(school as HTMLInputElement, "North High");
    await screen.findByRole("heading", { name: "Students (22)" }, SLOW);

    const button = screen.getByRole("button", { name: "Export" });
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { hidden: true });
    expect(within(menu).getAllByRole("menuitem", { hidden: true }).map((i) => i.textContent)).toEqual([
      "Download PDF",
      "E-mail report",
      "Download CSV",
    ]);

    // Everything but the PDF still goes to the dashboard's fake API.
    const pdf = vi.fn(() => fileResponse("%PDF-1.7 report", "application/pdf", "tally-attendance-report.pdf"));
    const fetchMock = mockFetch((url, init) => (url.startsWith("/api/pdf-reports/") ? pdf() : dashboard(url, init)));
    fireEvent.click(within(menu).getByRole("menuitem", { name: "Download PDF", hidden: true }));
    await waitFor(() => expect(saved).toHaveLength(1));
    // Saved under the name of its filters and day, not the server's fixed name.
    expect(saved[0]!.name).toBe(`Attendance-all-cohorts-North-High-${localDay(new Date())}.pdf`);
    expect(await saved[0]!.blob.text()).toBe("%PDF-1.7 report");
    const query = callsTo(fetchMock, "/pdf-reports/generate")[0]!;
    expect(Object.fromEntries(query)).toEqual({
      schoolId: "1",
      schoolName: "North High",
      totalSchools: "1",
      totalStudents: "22",
      totalCohorts: "2",
      totalTeams: "3",
      includeStudents: "true",
      studentLimit: "100",
    });
    const init = fetchMock.mock.calls.find(([u]) => String(u).includes("/pdf-reports/"))![1];
    expect(headerOf(init, "Authorization")).toBe("Bearer tok-9");
  }, 15_000);

  it("says Generating PDF... while the PDF is built, and shows the server's refusal", async () => {
    signIn(buildUser({ role: "admin" }));
    const { release } = heldFetch(() => jsonResponse(403, { error: REPORT_MESSAGES.exportOffSchool, code: "FORBIDDEN" }));
    renderMenu();
    await choose("Download PDF");
    const status = await screen.findByText("Generating PDF...");
    expect(status.closest("[role=status]")).toBeTruthy();
    release();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(REPORT_MESSAGES.exportOffSchool);
    expect(screen.queryByText("Generating PDF...")).toBeNull();
    expect(saved).toHaveLength(0);
    fireEvent.click(within(alert).getByRole("button", { name: "Dismiss message" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });

  it("shows the spec's PDF text when no answer comes (network failure or the 30 s limit)", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    renderMenu();
    await choose("Download PDF");
    expect((await screen.findByRole("alert")).textContent).toContain(REPORT_MESSAGES.pdfError);
  });

  it("downloads the CSV of the filters under the server's name", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => fileResponse("\uFEFFFirst name,Last name\r\n", "text/csv", "tally-students.csv"));
    renderMenu({ schoolId: 1, cohortId: 10, teamId: 100, schoolName: "North High", cohortName: "Spring 2025", teamName: "Falcons" });
    await choose("Download CSV");
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe("tally-students.csv");
    // Only the ids: the CSV route takes no names or totals.
    expect(Object.fromEntries(callsTo(fetchMock, "/reports/students.csv")[0]!)).toEqual({ schoolId: "1", cohortId: "10", teamId: "100" });
  });

  it("carries the dashboard's search to the PDF, the CSV and the e-mail, and names it", async () => {
    signIn(buildUser({ role: "admin" }));
    const dashboard = mockDashboardApi();
    renderApp("/dashboard?cohort=all&q=Student1");
    await screen.findByRole("heading", { name: /^Students \(/ }, SLOW);
    const fetchMock = mockFetch((url, init) =>
      url.startsWith("/api/pdf-reports/")
        ? fileResponse("%PDF-1.7", "application/pdf", "tally-attendance-report.pdf")
        : url.startsWith("/api/reports/students.csv")
          ? fileResponse("\uFEFFFirst name\r\n", "text/csv", "tally-students.csv")
          : url.startsWith("/api/email/")
            ? jsonResponse(200, { message: REPORT_MESSAGES.emailSent })
            : dashboard(url, init),
    );
    await choose("Download PDF");
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(callsTo(fetchMock, "/pdf-reports/generate")[0]!.get("q")).toBe("Student1");
    expect(saved[0]!.name).toBe(`Attendance-all-cohorts-all-schools-search-Student1-${localDay(new Date())}.pdf`);
    await choose("Download CSV");
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(Object.fromEntries(callsTo(fetchMock, "/reports/students.csv")[0]!)).toEqual({ q: "Student1" });
    expect(saved[1]!.name).toBe("tally-students-search-Student1.csv");
    await choose("E-mail report");
    const dialog = await screen.findByRole("dialog", { name: "E-mail Report" });
    expect((within(dialog).getByLabelText("Subject") as HTMLInputElement).value).toBe('Attendance report — All schools, search "Student1"');
    fireEvent.change(within(dialog).getByLabelText("Recipient email", { exact: false }), { target: { value: "funder@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith("/api/email/"))).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).startsWith("/api/email/"))!;
    expect(JSON.parse(String(init?.body))).toMatchObject({ recipient: ["funder@example.org"], q: "Student1" });
  }, 20_000);

  it("opens the e-mail dialog", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(404, {}));
    renderMenu();
    await choose("E-mail report");
    const dialog = await screen.findByRole("dialog", { name: "E-mail Report" });
    expect((within(dialog).getByLabelText("Subject") as HTMLInputElement).value).toBe("Attendance report — North High");
  });

  it("stays hidden from a district user whose chosen school has export off", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1] }));
    const fetchMock = mockFetch(() =>
      jsonResponse(200, {
        data: { enableExport: true, enableStudentEditing: true, applyToAllSchools: false, schoolSettings: {} },
        effective: { school_id: 1, enableExport: false, enableStudentEditing: true },
      }),
    );
    renderApp("/x", [{ path: "/x", element: <ExportMenu user={buildUser({ role: "district_user" })} report={NORTH} /> }]);
    await waitFor(() => expect(callsTo(fetchMock, "/settings/features")[0]?.get("school_id")).toBe("1"));
    // Let the reply land; the menu must still be absent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("button", { name: "Export" })).toBeNull();
  });
});
