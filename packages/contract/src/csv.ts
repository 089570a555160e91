// The formula-safe CSV cell, one rule for every CSV the app writes: the server's downloads
// (students, audit log) and the web's own (login history).

/** One CSV cell. Numbers are written as numbers; null and undefined as empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/** Excel reads a UTF-8 file as UTF-8 (accents intact) only when it starts with this mark. */
export const UTF8_BOM = "\uFEFF";

/** A whole decimal number such as 42, -5 or 3.25: spreadsheets read it as a value, never a formula. */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A leading one of these makes a spreadsheet read the cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Where a spreadsheet may start a new cell inside this one. Excel in a `;` locale opens a comma
 * file split at `;` (where the cell's quotes are no longer at the start of a field, so they
 * protect nothing), a tab-separated reader splits at tabs, a reader that ignores quotes starts
 * a record at CR or LF, and one splitting at every comma starts a cell after one. After each,
 * a formula start (after any tabs or CRs) is defused. So is a quote after the separators that
 * are not the file's own: a field that starts quoted can still start a formula. Not after a
 * comma, where a comma reader honours this cell's quotes: JSON cells keep `,"` intact.
 */
const AFTER_SEPARATOR = /[,;\t\r\n](?=[\t\r]*[=+\-@])|[;\t\r\n](?=[\t\r]*")/g;

const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * The text of one cell: names, user agents and audit values come from outside, so a cell that
 * would start a formula gets a leading `'` unless it is a plain number (-5 stays -5), and so
 * does what follows each separator inside it (see AFTER_SEPARATOR). A cell holding a comma,
 * semicolon, quote, CR or LF is quoted with inner quotes doubled (RFC 4180).
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  text = text.replace(AFTER_SEPARATOR, "$&'");
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: the cells joined by commas, ended by CRLF (RFC 4180). */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
