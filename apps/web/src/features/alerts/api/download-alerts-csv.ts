import { UTF8_BOM } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { downloadCsv } from "../../../lib/csv";
import { type AlertFilters, alertsApiQuery } from "./alert-filters";

const CSV_TIMEOUT_MS = 120_000;

/**
 * GET /api/alerts.csv: every alert under the filters (the server makes the cells formula-safe).
 * Reading the reply as text drops the byte order mark Excel needs, so it is put back.
 */
export async function downloadAlertsCsv(filters: AlertFilters): Promise<void> {
  const csv = await apiRequest<string>("/alerts.csv", { query: alertsApiQuery(filters), timeoutMs: CSV_TIMEOUT_MS });
  const text = typeof csv === "string" ? csv : "";
  downloadCsv("needs-attention.csv", text.startsWith(UTF8_BOM) ? text : UTF8_BOM + text);
}

export function useDownloadAlertsCsv() {
  return useMutation({ mutationFn: downloadAlertsCsv });
}
