import { setImmediate as nextTurn } from "node:timers/promises";
import { parse } from "csv-parse";
import { IMPORT_LIMITS } from "@tally/contract";
import { ReportRejected } from "./report-rejected.js";

export interface TableRecord {
  /**
   * The row as a spreadsheet shows the file: the header is row 1, blank lines count, a quoted
   * cell's line breaks start no row, Excel's "sep=" line is not shown.
   */
  row: number;
  /** One cell per header; missing cells of a short row are "". */
  cells: string[];
}

export interface Table {
  headers: string[];
  records: TableRecord[];
}

/** Characters fed to the parser between two yields to the event loop (about a millisecond of work). */
const CHUNK_CHARS = 32 * 1024;
const DELIMITERS = [",", ";", "\t"] as const;
/**
 * The longest record (in characters) a report may hold. Real rows are a few hundred; the
 * parser grows one field buffer so slowly that a 10 MB single line took ~10 s to refuse.
 */
export const MAX_RECORD_CHARS = 256 * 1024;
const SEP_LINE = /^sep=([,;\t|])[ \t]*(?:\r\n|\r|\n)/i;

/** The delimiter that occurs most often, outside quotes, on the header line (comma on a tie). */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  let started = false; // blank lines before the header are skipped
  for (const ch of text) {
    const lineEnd = ch === "\n" || ch === "\r";
    if (lineEnd && !quoted && started) break;
    if (lineEnd && !quoted) continue;
    started = true;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ",";
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * Parses a decoded CSV report: delimiter from the header line, RFC 4180 quoting, any line
 * ending, blank and all-empty rows skipped, ragged rows padded. Feeds the parser in chunks and
 * yields between them so a 10 MB file never holds the event loop for long.
 */
export async function readTable(source: string, file: string): Promise<Table> {
  if (source.trim() === "") throw new ReportRejected(`${file} is empty`);

  // Excel writes a "sep=;" line before the header when asked to name the delimiter.
  const sepLine = SEP_LINE.exec(source);
  const text = sepLine ? source.slice(sepLine[0].length) : source;
  const parser = parse({
    // The header line is a record too: past the limit the parser refuses it anyway.
    delimiter: sepLine?.[1] ?? detectDelimiter(text.slice(0, MAX_RECORD_CHARS)),
    bom: true,
    relax_column_count: true,
    // Exports put stray quotes inside unquoted cells (5" screen); keep them as text.
    relax_quotes: true,
    // Blank lines are kept here (as [""]) so that rows can be counted as a spreadsheet shows them.
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_CHARS,
  });

  // In an object: TypeScript does not see the closure assign it and would narrow it to null.
  const head: { headers: string[] | null } = { headers: null };
  const records: TableRecord[] = [];
  // Blank lines are records too (skip_empty_lines is off), so counting records counts rows.
  let rowCount = 0;
  // Set by the parser's error event, between two writes.
  const parsing: { failure: unknown } = { failure: null };

  const take = (cells: string[]) => {
    const row = ++rowCount;
    if (cells.every((c) => c.trim() === "")) return;
    if (head.headers === null) {
      head.headers = cells.map((h) => h.trim());
      return;
    }
    if (records.length >= IMPORT_LIMITS.maxDataRows) {
      throw new ReportRejected(
        `${file} has more than ${IMPORT_LIMITS.maxDataRows.toLocaleString("en-US")} data rows; split it into smaller files`,
        413,
      );
    }
    const width = head.headers.length;
    const padded = cells.length >= width ? cells : [...cells, ...Array<string>(width - cells.length).fill("")];
    records.push({ row, cells: padded });
  };

  const drain = () => {
    let record: string[] | null;
    while ((record = parser.read() as string[] | null) !== null) take(record);
  };
  parser.on("error", (error) => {
    parsing.failure ??= error;
  });

  try {
    for (let at = 0; at < text.length; at += CHUNK_CHARS) {
      if (parsing.failure !== null) break;
      parser.write(text.slice(at, at + CHUNK_CHARS));
      drain();
      await nextTurn();
    }
    if (parsing.failure === null) {
      const ended = new Promise<void>((resolve) => {
        parser.once("end", resolve);
        parser.once("error", () => resolve());
      });
      parser.end();
      drain();
      parser.on("readable", drain);
      await ended;
      drain();
    }
  } catch (error) {
    parser.destroy();
    throw error;
  }
  const { failure } = parsing;
  if (failure !== null) {
    if (failure instanceof ReportRejected) throw failure;
    if ((failure as { code?: string }).code === "CSV_MAX_RECORD_SIZE") {
      throw new ReportRejected(`${file} has a row longer than 256 KB, which no report has: check that it is the right CSV export`);
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new ReportRejected(`${file} could not be read as CSV: ${reason}`);
  }

  if (head.headers === null) throw new ReportRejected(`${file} is empty`);
  if (records.length === 0) throw new ReportRejected(`${file} has no data rows`);
  return { headers: head.headers, records };
}
