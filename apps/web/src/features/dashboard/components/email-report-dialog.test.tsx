import { REPORT_MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import type { ReportFilters } from "../api/report-filters";
import { EmailReportDialog } from "./email-report-dialog";

const REPORT: ReportFilters = {
  schoolId: 1,
  cohortId: 10,
  teamId: null,
  schoolName: "North High",
  cohortName: "Spring 2025",
  totals: { schoolCount: 1, studentCount: 22, cohortCount: 1, teamCount: 2 },
};

function renderDialog(report: ReportFilters = REPORT) {
  const onClose = vi.fn();
  renderApp("/x", [{ path: "/x", element: <EmailReportDialog report={report} onClose={onClose} /> }]);
  return { onClose, dialog: screen.getByRole("dialog", { name: "E-mail Report" }) };
}

function field(dialog: HTMLElement, label: string): HTMLInputElement {
  return within(dialog).getByLabelText(label, { exact: false }) as HTMLInputElement;
}

describe("the E-mail Report dialog", () => {
  it("is a labelled dialog with the subject and message filled in for the filters", () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(404, {}));
    const { dialog } = renderDialog();
    expect(within(dialog).getByRole("form", { name: "E-mail Report" })).toBeTruthy();
    expect(field(dialog, "Subject").value).toBe("Attendance report — North High, Spring 2025");
    expect(field(dialog, "Message").value).toBe("Please find attached the attendance report for North High, Spring 2025.");
    expect(field(dialog, "Recipient email").value).toBe("");
  });

  it("says All schools when no school is chosen", () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(404, {}));
    const { dialog } = renderDialog({ schoolId: null, cohortId: null, teamId: null });
    expect(field(dialog, "Subject").value).toBe("Attendance report — All schools");
  });

  it("asks for an address, then a valid one, before anything is sent", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, { message: REPORT_MESSAGES.emailSent }));
    const { dialog } = renderDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    expect(await within(dialog).findByText(REPORT_MESSAGES.emailRequired)).toBeTruthy();
    expect(field(dialog, "Recipient email").getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(field(dialog, "Recipient email"), { target: { value: "not-an-address" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    expect(await within(dialog).findByText('To: "not-an-address" is not a valid email address')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends to several recipients with copies, and names a bad address in either field", async () => {
    signIn(buildUser({ role: "admin" }));
    const fetchMock = mockFetch(() => jsonResponse(200, { message: REPORT_MESSAGES.emailSent }));
    const { dialog } = renderDialog();
    expect(within(dialog).getByText(/Replies go to your own address/)).toBeTruthy();
    fireEvent.change(field(dialog, "Recipient email"), { target: { value: "funder@example.org, board@example.org;" } });
    fireEvent.change(field(dialog, "CC"), { target: { value: "boss@example.org, oops" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    expect(await within(dialog).findByText('Cc: "oops" is not a valid email address')).toBeTruthy();
    expect(field(dialog, "CC").getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(field(dialog, "CC"), { target: { value: "boss@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toMatchObject({
      recipient: ["funder@example.org", "board@example.org"],
      cc: ["boss@example.org"],
    });
  });

  it("sends the fields and the filter ids, says Sending..., then Report sent successfully! and closes", async () => {
    signIn(buildUser({ role: "admin" }));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = mockFetch(async () => {
      await gate;
      return jsonResponse(200, { message: REPORT_MESSAGES.emailSent });
    });
    const { dialog, onClose } = renderDialog();
    fireEvent.change(field(dialog, "Recipient email"), { target: { value: " funder@example.org " } });
    fireEvent.change(field(dialog, "Recipient name"), { target: { value: "Zoë Müller" } });
    fireEvent.change(field(dialog, "Message"), { target: { value: "<b>Hello</b>" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    const sending = await within(dialog).findByText("Sending...", { selector: "p" });
    expect(sending.closest("[role=status]")).toBeTruthy();

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/email/send-report");
    expect(init?.method).toBe("POST");
    // The server's schema is strict: ids only, no names or totals.
    expect(JSON.parse(String(init?.body))).toEqual({
      recipient: ["funder@example.org"],
      recipientName: "Zoë Müller",
      subject: "Attendance report — North High, Spring 2025",
      content: "<b>Hello</b>",
      schoolId: 1,
      cohortId: 10,
    });
    release();
    expect(await within(dialog).findByText(REPORT_MESSAGES.emailSent)).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Send Report" })).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Close"));
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it("shows the server's 429 text, and the spec's text for a server failure", async () => {
    signIn(buildUser({ role: "admin" }));
    let status = 429;
    mockFetch(() =>
      status === 429
        ? jsonResponse(429, { error: REPORT_MESSAGES.emailRateLimited, code: "RATE_LIMITED" })
        : jsonResponse(502, { error: "Something went wrong on the server. Please try again.", code: "INTERNAL" }),
    );
    const { dialog, onClose } = renderDialog();
    fireEvent.change(field(dialog, "Recipient email"), { target: { value: "funder@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe(REPORT_MESSAGES.emailRateLimited);
    status = 502;
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Report" }));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(REPORT_MESSAGES.emailError));
    expect(onClose).not.toHaveBeenCalled();
  });
});
