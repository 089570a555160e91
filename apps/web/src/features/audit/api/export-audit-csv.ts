import { AUDIT_CSV_FILE, UTF8_BOM } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { downloadCsv } from "../../../lib/csv";
import { type AuditFilterFields, auditFilter } from "./get-audit-entries";

/** A long log streams for a while; longer than an ordinary call. */
const EXPORT_TIMEOUT_MS = 120_000;

/**
 * Downloads the server's CSV of every filtered entry (its cells already defused against CSV
 * injection). Reading the reply as text drops the byte order mark Excel needs to read UTF-8,
 * so it is put back.
 */
export async function exportAuditCsv(fields: AuditFilterFields): Promise<void> {
  const csv = await apiRequest<string>("/audit/export.csv", { query: auditFilter(fields), timeoutMs: EXPORT_TIMEOUT_MS });
  const text = typeof csv === "string" ? csv : "";
  downloadCsv(AUDIT_CSV_FILE, text.startsWith(UTF8_BOM) ? text : UTF8_BOM + text);
}

export function useExportAuditCsv() {
  return useMutation({ mutationFn: exportAuditCsv });
}
