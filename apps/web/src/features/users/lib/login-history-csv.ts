import { loginFailureText, type LoginLogRow } from "@tally/contract";
import { toCsv } from "../../../lib/csv";
import { browserLabel } from "./browser-label";

export const LOGIN_HISTORY_CSV_HEADER = [
  "ID",
  "Date/Time (UTC)",
  "Method",
  "IP Address",
  "Browser",
  "User Agent",
  "Status",
  "Failure Reason",
] as const;

/** The export of the Login History modal: one row per sign-in attempt. */
export function loginHistoryCsv(rows: readonly LoginLogRow[]): string {
  return toCsv([
    LOGIN_HISTORY_CSV_HEADER,
    ...rows.map((r) => [
      r.id,
      r.created_at,
      r.provider ? `${r.login_method} (${r.provider})` : r.login_method,
      r.ip_address,
      browserLabel(r.user_agent),
      r.user_agent,
      r.successful ? "Success" : "Failed",
      // In words, as the modal shows it (issue 29); an older free-text reason as written.
      r.failure_reason === null ? null : loginFailureText(r.failure_reason),
    ]),
  ]);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** login_history_{username}_{YYYY-MM-DD}.csv, with the local date of the export. */
export function loginHistoryFileName(username: string, now: Date = new Date()): string {
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  // A username is free text: keep the file name to characters every file system accepts.
  const safe = username.replace(/[^A-Za-z0-9._-]/g, "_");
  return `login_history_${safe}_${day}.csv`;
}
