import { weekMostDatesFallIn } from "@tally/contract";

// The week a meeting report is of, read in the browser from its dates (issue 29): the form
// proposes it before anything is uploaded. The server reads the file fully; this is a guess
// for the week box only, so a line it cannot read is passed over.

/** One CSV line's cells (quotes understood; a quoted line break is not, that line is passed over). */
function cellsOf(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** "2026-07-14", "7/14/2026" (month first, as the server reads a file that does not say otherwise). */
function isoDay(value: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (us) return `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
  return null;
}

/** The meeting dates of a meeting report's text, as ISO days. */
export function meetingDates(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = lines[0] ?? "";
  const separator = [",", ";", "\t"].reduce((best, s) => (header.split(s).length > header.split(best).length ? s : best), ",");
  const columns = cellsOf(header, separator).map((c) => c.toLowerCase());
  const at = columns.includes("meeting date") ? columns.indexOf("meeting date") : columns.indexOf("date");
  if (at < 0) return [];
  const dates: string[] = [];
  for (const line of lines.slice(1)) {
    const day = isoDay(cellsOf(line, separator)[at] ?? "");
    if (day && Number.isFinite(Date.parse(`${day}T00:00:00Z`))) dates.push(day);
  }
  return dates;
}

/** The cohort week most of the dates fall in (the server's week mismatch reads them alike); null when that is none of the cohort's. */
export function weekOfDates(dates: readonly string[], startDate: string, endDate: string): number | null {
  return weekMostDatesFallIn(startDate, endDate, dates)?.week ?? null;
}
