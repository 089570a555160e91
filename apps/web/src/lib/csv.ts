/** One CSV cell. Numbers are written as numbers; null and undefined as empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/** A whole decimal number such as 42, -5 or 3.25: spreadsheets read it as a value, never a formula. */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A leading one of these makes a spreadsheet read the cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The text of one cell: user agents and names come from outside, so a cell that would start a
 * formula gets a leading `'`, unless it is a plain number (-5 stays -5). Fields holding a
 * comma, quote, CR or LF are quoted with inner quotes doubled (RFC 4180).
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: CRLF between records and after the last one. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + (rows.length > 0 ? "\r\n" : "");
}

/** Hands the text to the browser as a download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
