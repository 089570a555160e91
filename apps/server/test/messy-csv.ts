import fc from "fast-check";
// Writes report files in the shapes real exports come in (report-formats.md, "Parsing
// rules"), so that tests can check the readers give the same rows as for the clean file.

export type Delimiter = "," | ";" | "\t";
export type LineEnding = "\r\n" | "\n" | "\r";
export type HeaderStyle = "as-is" | "upper-trailing-space" | "snake" | "lower-padded";

export interface MessyOptions {
  bom?: boolean;
  encoding?: "utf-8" | "windows-1252";
  delimiter?: Delimiter;
  eol?: LineEnding;
  /** Quote every cell, not only those that need it. */
  quoteAll?: boolean;
  /** After these data-row indexes, insert a blank line (even) or an all-empty row (odd). */
  blankAfter?: readonly number[];
  headerStyle?: HeaderStyle;
  /** Headers written under another accepted name: { "Meeting Date": "Date" }. */
  renames?: Readonly<Record<string, string>>;
  /** Add columns no reader knows. */
  extraColumns?: boolean;
  /** Seed of a column shuffle; 0 keeps the order. */
  shuffleSeed?: number;
  /** No line ending after the last row. */
  noFinalEol?: boolean;
}

export interface CsvTable {
  headers: string[];
  rows: string[][];
}

/** Windows-1252's characters for bytes 0x80–0x9F (undefined where the code page has none). */
const CP1252_HIGH = ["€", undefined, "‚", "ƒ", "„", "…", "†", "‡", "ˆ", "‰", "Š", "‹", "Œ", undefined, "Ž", undefined, undefined, "‘", "’", "“", "”", "•", "–", "—", "˜", "™", "š", "›", "œ", undefined, "ž", "Ÿ"];

/** Encodes text as Windows-1252; throws on a character the code page lacks. */
export function encodeWindows1252(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const high = CP1252_HIGH.indexOf(ch);
    if (high >= 0) bytes.push(0x80 + high);
    else if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else throw new Error(`${JSON.stringify(ch)} has no Windows-1252 byte`);
  }
  return new Uint8Array(bytes);
}

function styleHeader(header: string, style: HeaderStyle): string {
  if (style === "upper-trailing-space") return `${header.toUpperCase()} `;
  if (style === "snake") return header.toLowerCase().replace(/[\s-]+/g, "_");
  if (style === "lower-padded") return `  ${header.toLowerCase()}  `;
  return header;
}

/** A deterministic permutation of 0…n−1 (Fisher–Yates on a small LCG). */
function permutation(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let state = seed >>> 0 || 1;
  for (let i = n - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** The CSV text of a table in the given shape. */
export function messyText(table: CsvTable, options: MessyOptions = {}): string {
  const delimiter = options.delimiter ?? ",";
  const eol = options.eol ?? "\r\n";
  let headers = table.headers.map((h) => styleHeader(options.renames?.[h] ?? h, options.headerStyle ?? "as-is"));
  let rows = table.rows.map((r) => [...r]);
  if (options.extraColumns) {
    headers = ["Export Batch", ...headers, "Cohort Ref"];
    rows = rows.map((r, i) => [`B-${i}`, ...r, i % 2 ? "" : "x; y, \"z\""]);
  }
  if (options.shuffleSeed) {
    const order = permutation(headers.length, options.shuffleSeed);
    headers = order.map((i) => headers[i]!);
    rows = rows.map((r) => order.map((i) => r[i] ?? ""));
  }
  const quote = (cell: string) => {
    const needs = options.quoteAll || cell.includes(delimiter) || /["\r\n]/.test(cell) || cell !== cell.trim();
    return needs ? `"${cell.replaceAll('"', '""')}"` : cell;
  };
  const line = (cells: string[]) => cells.map(quote).join(delimiter);
  const lines = [line(headers)];
  const blankAfter = new Set(options.blankAfter ?? []);
  rows.forEach((r, i) => {
    lines.push(line(r));
    if (blankAfter.has(i)) lines.push(i % 2 === 0 ? "" : delimiter.repeat(headers.length - 1));
  });
  return lines.join(eol) + (options.noFinalEol ? "" : eol);
}

/** The bytes of a table written in the given shape. */
export function messyCsv(table: CsvTable, options: MessyOptions = {}): Uint8Array {
  const text = (options.bom && options.encoding !== "windows-1252" ? "\uFEFF" : "") + messyText(table, options);
  return options.encoding === "windows-1252" ? encodeWindows1252(text) : new TextEncoder().encode(text);
}

/**
 * Replaces the First Name and Last Name columns by one full-name column, optionally written
 * "Last, First".
 */
export function joinNameColumns(table: CsvTable, header: string, lastFirst: boolean): CsvTable {
  const first = table.headers.indexOf("First Name");
  const last = table.headers.indexOf("Last Name");
  if (first < 0 || last < 0) throw new Error("the table has no First Name and Last Name columns");
  const keep = (cells: string[]) => cells.filter((_, i) => i !== first && i !== last);
  return {
    headers: [header, ...keep(table.headers)],
    rows: table.rows.map((r) => [lastFirst ? `${r[last]}, ${r[first]}` : `${r[first]} ${r[last]}`, ...keep(r)]),
  };
}

/** Rewrites a single full-name column as "Last, First" (first word is the first name). */
export function lastFirstNames(table: CsvTable, header: string): CsvTable {
  const index = table.headers.indexOf(header);
  return {
    headers: table.headers,
    rows: table.rows.map((r) =>
      r.map((cell, i) => {
        if (i !== index) return cell;
        const space = cell.indexOf(" ");
        return space < 0 ? cell : `${cell.slice(space + 1)}, ${cell.slice(0, space)}`;
      }),
    ),
  };
}

/** Parses a clean fixture CSV (comma, RFC 4180) into headers and rows, for rewriting it. */
export function parseCleanCsv(text: string): CsvTable {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      cells.push(cell);
      records.push(cells);
      cells = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || cells.length > 0) records.push([...cells, cell]);
  const [headers = [], ...rows] = records;
  return { headers, rows };
}

/** Every messy shape at once, for fast-check: `renames` picks one accepted alias per column. */
export function messyOptions(rowCount: number, aliases: Readonly<Record<string, readonly string[]>> = {}): fc.Arbitrary<MessyOptions> {
  const renames = fc.record(
    Object.fromEntries(Object.entries(aliases).map(([header, names]) => [header, fc.constantFrom(header, ...names)])),
  ) as fc.Arbitrary<Record<string, string>>;
  return fc.record({
    bom: fc.boolean(),
    encoding: fc.constantFrom("utf-8" as const, "windows-1252" as const),
    delimiter: fc.constantFrom<Delimiter>(",", ";", "\t"),
    eol: fc.constantFrom<LineEnding>("\r\n", "\n", "\r"),
    quoteAll: fc.boolean(),
    blankAfter: fc.uniqueArray(fc.nat(Math.max(0, rowCount - 1)), { maxLength: 4 }),
    headerStyle: fc.constantFrom<HeaderStyle>("as-is", "upper-trailing-space", "snake", "lower-padded"),
    renames,
    extraColumns: fc.boolean(),
    shuffleSeed: fc.nat(1000),
    noFinalEol: fc.boolean(),
  });
}
