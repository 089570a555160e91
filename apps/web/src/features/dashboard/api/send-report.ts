import { REPORT_LIMITS, type SendReportRequest, type SendReportResponse } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { type ReportFilters, reportFilter } from "./report-filters";

export interface ReportEmail {
  /** Checked and split by the contract's schema: each address once. */
  recipient: string[];
  cc: string[];
  recipientName: string;
  subject: string;
  content: string;
}

/** The server builds the PDF before it sends: allow the PDF's time plus the mail's. */
export const SEND_REPORT_TIMEOUT_MS = REPORT_LIMITS.pdfTimeoutMs + 15_000;

/** E-mails the PDF of these filters; the server checks the address, the rights and the hourly limit. */
export function sendReport(email: ReportEmail, report: ReportFilters): Promise<SendReportResponse> {
  // No cc at all when there is none: the body stays the spec's.
  const { cc, ...rest } = email;
  const body: SendReportRequest = { ...rest, ...(cc.length > 0 ? { cc } : {}), ...reportFilter(report) };
  return apiRequest<SendReportResponse>("/email/send-report", {
    method: "POST",
    body,
    timeoutMs: SEND_REPORT_TIMEOUT_MS,
  });
}

export function useSendReport(report: ReportFilters) {
  return useMutation({ mutationFn: (email: ReportEmail) => sendReport(email, report) });
}
