import { IMPORT_FILE_LABELS, type ImportFileField } from "@tally/contract";

/** A report recognised by its header row: one of the import's three, or the flag uploader's CRM report. */
export type ReportKind = ImportFileField | "crm";

const cells = (headerLine: string) =>
  headerLine
    .replace(/^\uFEFF/, "")
    .split(/[,;\t]/)
    .map((cell) => cell.replace(/"/g, "").trim().toLowerCase());

/**
 * Which report a header row belongs to, by the columns only that report has (report-formats.md):
 * null when it is none of them, so a file is never moved on a guess.
 */
export function reportKindOf(headerLine: string): ReportKind | null {
  const columns = cells(headerLine);
  const has = (...names: string[]) => names.some((name) => columns.includes(name));
  const mentions = (word: string) => columns.some((c) => c.includes(word));
  if (has("benefit assignment id")) return "crm";
  if (has("meeting date", "meeting type")) return "attendanceReport";
  if (has("progress") && has("past due assessments", "past due")) return "progressReport";
  if (mentions("hours") && (mentions("feeling") || mentions("rating") || mentions("scale"))) return "reflectionReport";
  return null;
}

/** A file's (or a slice's) text, as UTF-8. */
export const textOf = (blob: Blob): Promise<string> => (typeof blob.text === "function" ? blob.text() : new Response(blob).text());

/** The file's first line (its header row), read from its first 8 KB. */
export async function headerLineOf(file: File): Promise<string> {
  const text = await textOf(file.slice(0, 8192));
  return text.split(/\r?\n/)[0] ?? "";
}

/** What to tell the person about a file chosen for `field`, or null when it fits (or cannot be told). */
export function misplacedText(field: ImportFileField, kind: ReportKind | null): string | null {
  if (kind === null || kind === field) return null;
  if (kind === "crm") return "This looks like the CRM attendance report, which the Flag Uploader takes. Choose the meeting attendance report here.";
  return `This looks like the ${IMPORT_FILE_LABELS[kind].toLowerCase()}, not the ${IMPORT_FILE_LABELS[field].toLowerCase()}.`;
}
