import { createHash } from "node:crypto";
import { isCsvFile } from "@tally/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError, badRequest, unsupportedMediaType } from "./errors.js";
import { yieldToLoop } from "./yield-to-loop.js";

/** Upload blocks: small enough that filling one never holds the event loop (fresh memory is slow to touch). */
export const BLOCK_BYTES = 1024 * 1024;

/**
 * An uploaded file, held as blocks of at most 1 MB copied from the request as it arrives:
 * joining 10 MB at the end held the event loop for 20–40 ms. The weekly import hands the
 * blocks to its worker thread as they are; `bytes` joins them for readers in this thread.
 */
export class UploadedReport {
  private joined: Uint8Array | null = null;

  constructor(
    readonly name: string,
    public blocks: Uint8Array[],
    readonly size: number,
    readonly sha256: string,
  ) {}

  get bytes(): Uint8Array {
    this.joined ??= joinBlocks(this.blocks, this.size);
    return this.joined;
  }
}

export function joinBlocks(blocks: readonly Uint8Array[], size = blocks.reduce((n, b) => n + b.length, 0)): Uint8Array {
  if (blocks.length === 1 && blocks[0]!.length === size) return blocks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const block of blocks) {
    bytes.set(block, at);
    at += block.length;
  }
  return bytes;
}

/** Copies chunks into blocks of BLOCK_BYTES (the last one cut to its length). */
export class BlockWriter {
  readonly blocks: Uint8Array[] = [];
  private current: Uint8Array | null = null;
  private used = 0;
  size = 0;

  /** Copies a chunk in; true when that filled a block (a moment to let other requests run). */
  write(chunk: Uint8Array): boolean {
    const blocksBefore = this.blocks.length;
    let from = 0;
    while (from < chunk.length) {
      if (!this.current || this.used === this.current.length) {
        if (this.current) this.blocks.push(this.current);
        this.current = new Uint8Array(BLOCK_BYTES);
        this.used = 0;
      }
      const n = Math.min(chunk.length - from, this.current.length - this.used);
      this.current.set(chunk.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
    }
    this.size += chunk.length;
    return this.blocks.length !== blocksBefore;
  }

  finish(): Uint8Array[] {
    // A short last block is copied to its length, so a small file does not hold 1 MB.
    if (this.current && this.used > 0) this.blocks.push(this.used === this.current.length ? this.current : this.current.slice(0, this.used));
    this.current = null;
    return this.blocks;
  }
}

export interface ReportUploadRules<F extends string, S extends z.ZodType> {
  /** The file fields, each required once. */
  fileFields: readonly F[];
  labels: Record<F, string>;
  /** The text fields, as strings. */
  fieldsSchema: S;
  maxFileBytes: number;
}

/** The longest file name taken, in characters: most file systems allow no more, and the name is stored with the batch. */
export const MAX_FILE_NAME_CHARS = 255;

const filesText = (count: number) => `${count === 3 ? "three" : count} report files`;

/**
 * preParsing hook of an upload route (after the guards' onRequest): a body that is not a
 * multipart form is refused with 415 before it is read. Left to Fastify, a JSON or text body was
 * parsed and reached the handler, and malformed JSON became a 400 the route's reply schema did
 * not expect (answered as a 500).
 */
export function multipartFormOnly(fileCount: number) {
  return async <P>(request: FastifyRequest, _reply: unknown, payload: P): Promise<P> => {
    const mediaType = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType !== "multipart/form-data") {
      throw unsupportedMediaType(`Send the form as multipart/form-data with the ${filesText(fileCount)}.`);
    }
    return payload;
  };
}

/** The form as the API document shows it: the text fields, and each file field as a file. */
export function reportUploadForm<F extends string>(rules: ReportUploadRules<F, z.ZodObject>): z.ZodObject {
  const mb = rules.maxFileBytes / (1024 * 1024);
  const files = Object.fromEntries(rules.fileFields.map((field) => [field, z.file().describe(`${rules.labels[field]}: a CSV file of at most ${mb} MB`)]));
  return rules.fieldsSchema.extend(files);
}

/** Fastify's multipart refusals, said for people. */
function uploadError(error: unknown, currentFile: string | null, tooLarge: (name: string) => AppError, count: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(currentFile ?? "A file");
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
    return badRequest(`Send the ${filesText(count)} and the form fields only.`);
  }
  if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") return badRequest(`Send the form as multipart/form-data with the ${filesText(count)}.`);
  if (code === "FST_INVALID_JSON_FIELD_ERROR") return badRequest("Form fields must be plain text.");
  if (code === "FST_PROTO_VIOLATION") return badRequest("A form field has a name that is not allowed.");
  // The multipart parser's own refusals (no boundary, a body cut short, a malformed part
  // header) carry no code and no status: the upload is broken, not the server.
  if (!(error instanceof AppError) && (error as { statusCode?: number }).statusCode === undefined) {
    return badRequest(`The upload is not a complete form. Please send the ${filesText(count)} again.`);
  }
  return error;
}

/**
 * Reads a form of report files and text fields. Each file is held in memory (every report is
 * read whole before anything is matched), at most `maxFileBytes`; a file that is not a CSV
 * text file is refused before it is parsed.
 */
export async function readReportUpload<F extends string, S extends z.ZodType>(
  request: FastifyRequest,
  rules: ReportUploadRules<F, S>,
): Promise<{ fields: z.infer<S>; files: Record<F, UploadedReport> }> {
  const { fileFields, labels } = rules;
  const mb = rules.maxFileBytes / (1024 * 1024);
  const tooLarge = (name: string) => new AppError(413, "PAYLOAD_TOO_LARGE", `${name} is larger than ${mb} MB. Split the report into smaller files.`);
  const isFileField = (name: string): name is F => (fileFields as readonly string[]).includes(name);
  const fields: Record<string, string> = {};
  const files: Partial<Record<F, UploadedReport>> = {};
  let currentFile: string | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: rules.maxFileBytes, files: fileFields.length, fields: 12, fieldSize: 1000, parts: fileFields.length + 12 },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (typeof part.value !== "string") throw badRequest(`Form field "${part.fieldname}" must be text.`);
        // Two values for one field leave the form ambiguous: neither is taken.
        if (Object.hasOwn(fields, part.fieldname)) throw badRequest(`Form field "${part.fieldname}" was sent more than once. Send each field once.`);
        fields[part.fieldname] = part.value;
        continue;
      }
      currentFile = part.filename || part.fieldname;
      const field = part.fieldname;
      if (!isFileField(field)) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`Unknown file field "${field}". Send ${fileFields.join(", ")}.`);
      }
      if (files[field]) throw badRequest(`${labels[field]}: send one file only.`);
      const nameLength = [...currentFile].length;
      if (nameLength > MAX_FILE_NAME_CHARS) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(
          `${labels[field]} (${[...currentFile].slice(0, 40).join("")}…): the file name is ${nameLength} characters long; at most ${MAX_FILE_NAME_CHARS} are allowed. Rename the file and try again.`,
        );
      }
      const label = `${labels[field]} (${currentFile})`;
      if (!isCsvFile(currentFile, part.mimetype)) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`${label}: Invalid file type. Please upload a CSV file.`);
      }
      // Hashed chunk by chunk as it arrives: one pass over a 10 MB file at the end would hold
      // the event loop for tens of milliseconds.
      const hash = createHash("sha256");
      const writer = new BlockWriter();
      let binary = false;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        hash.update(chunk);
        binary ||= chunk.includes(0);
        // The parts of a fast upload arrive as a chain of promises that never leaves the
        // microtask queue: each new block is a turn for other requests.
        if (writer.write(chunk)) await yieldToLoop();
      }
      if (part.file.truncated) throw tooLarge(currentFile);
      if (writer.size === 0) throw badRequest(`${label} is empty.`);
      if (binary) {
        throw badRequest(`${label} is not a CSV text file (it holds binary data). Save it from the spreadsheet as "CSV UTF-8" and try again.`);
      }
      files[field] = new UploadedReport(currentFile, writer.finish(), writer.size, hash.digest("hex"));
      currentFile = null;
    }
  } catch (error) {
    throw uploadError(error, currentFile, tooLarge, fileFields.length);
  }
  const missing = fileFields.filter((f) => !files[f]).map((f) => labels[f]);
  if (missing.length > 0) throw badRequest(`Please upload all three required files. Missing: ${missing.join(", ")}.`);
  const parsed = rules.fieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    const message = issue?.code === "unrecognized_keys" ? `Unknown form field: ${issue.keys.join(", ")}` : (issue?.message ?? "Invalid form");
    throw badRequest(message, [{ path: `body.${path}`, message }]);
  }
  return { fields: parsed.data, files: files as Record<F, UploadedReport> };
}
