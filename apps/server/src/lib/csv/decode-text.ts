import { ReportRejected } from "./report-rejected.js";
import { TextDecoder } from "node:util";
import { yieldToLoop } from "../yield-to-loop.js";

/** How far into a file we look for signs that it is not text. */
const SNIFF_BYTES = 8 * 1024;

/** Signatures of the files people upload by mistake instead of a CSV export. */
const BINARY_SIGNATURES: { bytes: number[]; kind: string }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46], kind: "a PDF" }, // %PDF
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: "a spreadsheet or zip archive (save it as CSV)" }, // xlsx, zip
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], kind: "an old Excel or Word file (save it as CSV)" }, // OLE2 .xls/.doc
];

/**
 * Windows-1252's characters for bytes 0x80–0x9F. Some Node builds decode "windows-1252" as
 * ISO-8859-1 (C1 control characters there), which would turn "€" or "’" into garbage.
 */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** Bytes decoded between two yields to the event loop (a few milliseconds of work). */
const DECODE_CHUNK = 1024 * 1024;

/** Decodes in slices with a streaming decoder, yielding between them: a 10 MB file at once holds the loop for tens of ms. */
async function decodeInTurns(decoder: TextDecoder, bytes: Uint8Array): Promise<string> {
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += DECODE_CHUNK) {
    const end = Math.min(at + DECODE_CHUNK, bytes.length);
    parts.push(decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length }));
    if (end < bytes.length) await yieldToLoop();
  }
  if (bytes.length === 0) parts.push(decoder.decode());
  return parts.join("");
}

/**
 * The text of an uploaded report: UTF-8 (BOM stripped), or Windows-1252 when the bytes are not
 * valid UTF-8 (Excel's "CSV" on Windows), or UTF-16 when it carries a BOM (Excel's "Unicode
 * text"). Binary files are refused with a message naming `file`.
 */
export async function decodeText(bytes: Uint8Array, file: string): Promise<string> {
  // UTF-16 is checked before the NUL test: every other byte of its ASCII text is 0.
  if (startsWith(bytes, [0xff, 0xfe])) return await decodeInTurns(new TextDecoder("utf-16le"), bytes);
  if (startsWith(bytes, [0xfe, 0xff])) return await decodeInTurns(new TextDecoder("utf-16be"), bytes);

  const signature = BINARY_SIGNATURES.find((s) => startsWith(bytes, s.bytes));
  if (signature) throw new ReportRejected(`${file} is not a CSV file (it looks like ${signature.kind})`);
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) throw new ReportRejected(`${file} is not a CSV file (it contains binary data)`);

  try {
    // TextDecoder drops a leading UTF-8 BOM by default.
    return await decodeInTurns(new TextDecoder("utf-8", { fatal: true }), bytes);
  } catch {
    const text = await decodeInTurns(new TextDecoder("windows-1252"), bytes);
    return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
  }
}
