/**
 * Cell values of report files: numbers as people type them and the date forms the exports
 * use. Parsers return null for a value they cannot read; the report reader turns that into a
 * row error.
 */

/** "45%", " 1,200 ", "7.5", "-3", "7,5" (decimal comma of a semicolon export) → number. */
export function parseNumber(raw: string): number | null {
  const text = raw.trim().replace(/\s+/g, "").replace(/%$/, "");
  let plain: string;
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) plain = text.replaceAll(",", "");
  else if (/^[-+]?\d+,\d{1,2}$/.test(text)) plain = text.replace(",", ".");
  else plain = text;
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(plain)) return null;
  const value = Number(plain);
  return Number.isFinite(value) ? value : null;
}

/** A percentage 0–100; "0.45" (at most 1, with a decimal point, no % sign) is a fraction = 45. */
export function parsePercent(raw: string): number | null {
  const value = parseNumber(raw);
  if (value === null) return null;
  const fraction = !raw.includes("%") && /[.,]/.test(raw) && value >= 0 && value <= 1;
  // Rounded so that 0.07 × 100 is 7, not 7.000000000000001.
  return fraction ? Math.round(value * 100 * 1e6) / 1e6 : value;
}

/** A whole number: "3", "1,200", "2.0"; "2.5" is not one. */
export function parseWholeNumber(raw: string): number | null {
  const value = parseNumber(raw);
  return value !== null && Number.isInteger(value) ? value : null;
}

export type DateOrder = "month-day" | "day-month";

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const NUMERIC_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$/;
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const DAY_MONTH_NAME = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]+)\.?,?[\s-]+(\d{4})$/;
const MONTH_NAME_DAY = /^([a-z]+)\.?[\s-]+(\d{1,2})(?:st|nd|rd|th)?,?[\s-]+(\d{4})$/;

/** Drops a time of day after the date ("2026-03-02T10:00:00Z", "3/2/2026 10:15 AM"). */
const datePart = (raw: string) =>
  raw
    .trim()
    .toLowerCase()
    .replace(/[t\s]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[ap]\.?m\.?)?(z|[+-]\d{2}:?\d{2})?$/, "")
    .trim();

/**
 * The day/month order of a file's numeric dates: day/month when some first part is over 12,
 * month/day when some second part is (or when none decides: the programme's US locale).
 */
export function detectDateOrder(values: Iterable<string>): DateOrder {
  for (const raw of values) {
    const order = dateOrderOf(raw);
    if (order) return order;
  }
  return "month-day";
}

/** The order one numeric date can only be read in, or null when it does not decide. */
export function dateOrderOf(raw: string): DateOrder | null {
  if (!/^\s*\d{1,2}[/.-]\d{1,2}[/.-]/.test(raw)) return null;
  const m = NUMERIC_DATE.exec(datePart(raw));
  if (m && Number(m[1]) > 12) return "day-month";
  if (m && Number(m[2]) > 12) return "month-day";
  return null;
}

/** "Mar", "March", "Sept" → 3; a word that is not a month (or its first three letters or more) → null. */
function monthFromName(name: string): number | null {
  if (name.length < 3) return null;
  const index = MONTHS.findIndex((month) => month.startsWith(name));
  return index < 0 ? null : index + 1;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** ISO, 3/2/2026 (in the file's order), "2 Mar 2026", "March 2, 2026" → yyyy-mm-dd, else null. */
export function parseDate(raw: string, order: DateOrder = "month-day"): string | null {
  const text = datePart(raw);
  let m = ISO_DATE.exec(text);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = NUMERIC_DATE.exec(text);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return order === "day-month" ? isoDate(year, b, a) : isoDate(year, a, b);
  }
  m = DAY_MONTH_NAME.exec(text);
  if (m) {
    const month = monthFromName(m[2]!);
    return month === null ? null : isoDate(Number(m[3]), month, Number(m[1]));
  }
  m = MONTH_NAME_DAY.exec(text);
  if (m) {
    const month = monthFromName(m[1]!);
    return month === null ? null : isoDate(Number(m[3]), month, Number(m[2]));
  }
  return null;
}
