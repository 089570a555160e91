import { createHash } from "node:crypto";
import { IMPORT_FILE_FIELDS, IMPORT_FILE_LABELS, IMPORT_LIMITS, type ImportFileField, importFormFieldsSchema } from "@tally/contract";
import type { FastifyRequest } from "fastify";
import { AppError, badRequest } from "../../lib/errors.js";
import type { ImportUpload, UploadedFile } from "./imports.service.js";

const MB = IMPORT_LIMITS.maxFileBytes / (1024 * 1024);
const isFileField = (name: string): name is ImportFileField => (IMPORT_FILE_FIELDS as readonly string[]).includes(name);
const looksLikeCsv = (name: string, mimetype: string) => /\.csv$/i.test(name) || mimetype === "text/csv";

function tooLarge(name: string) {
  return new AppError(413, "PAYLOAD_TOO_LARGE", `${name} is larger than ${MB} MB. Split the report into smaller files.`);
}

/** Fastify's multipart refusals, said for people. */
function uploadError(error: unknown, currentFile: string | null): unknown {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(currentFile ?? "A file");
  if (code === "FST_FILES_LIMIT_REACHED" || code === "FST_PARTS_LIMIT_REACHED" || code === "FST_FIELDS_LIMIT_REACHED") {
    return badRequest("Send the three report files and the form fields only.");
  }
  if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") return badRequest("Send the form as multipart/form-data with the three report files.");
  if (code === "FST_PROTO_VIOLATION") return badRequest("A form field has a name that is not allowed.");
  return error;
}

/**
 * Reads the import form: its text fields and the three reports, each at most 10 MB, held in
 * memory (30 MB at most) because every report is read whole before anything is matched.
 */
export async function readImportUpload(request: FastifyRequest): Promise<ImportUpload> {
  const fields: Record<string, string> = {};
  const files: Partial<Record<ImportFileField, UploadedFile>> = {};
  let currentFile: string | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: IMPORT_FILE_FIELDS.length, fields: 12, fieldSize: 1000, parts: 15 },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (typeof part.value !== "string") throw badRequest(`Form field "${part.fieldname}" must be text.`);
        fields[part.fieldname] = part.value;
        continue;
      }
      currentFile = part.filename || part.fieldname;
      if (!isFileField(part.fieldname)) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`Unknown file field "${part.fieldname}". Send ${IMPORT_FILE_FIELDS.join(", ")}.`);
      }
      if (files[part.fieldname]) throw badRequest(`${IMPORT_FILE_LABELS[part.fieldname]}: send one file only.`);
      const label = `${IMPORT_FILE_LABELS[part.fieldname]} (${currentFile})`;
      if (!looksLikeCsv(currentFile, part.mimetype)) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`${label}: Invalid file type. Please upload a CSV file.`);
      }
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw tooLarge(currentFile);
      if (bytes.length === 0) throw badRequest(`${label} is empty.`);
      if (bytes.includes(0)) {
        throw badRequest(`${label} is not a CSV text file (it holds binary data). Save it from the spreadsheet as "CSV UTF-8" and try again.`);
      }
      files[part.fieldname] = {
        name: currentFile,
        bytes,
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      };
      currentFile = null;
    }
  } catch (error) {
    throw uploadError(error, currentFile);
  }
  const missing = IMPORT_FILE_FIELDS.filter((f) => !files[f]).map((f) => IMPORT_FILE_LABELS[f]);
  if (missing.length > 0) throw badRequest(`Please upload all three required files. Missing: ${missing.join(", ")}.`);
  const parsed = importFormFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    const message = issue?.code === "unrecognized_keys" ? `Unknown form field: ${issue.keys.join(", ")}` : (issue?.message ?? "Invalid form");
    throw badRequest(message, [{ path: `body.${path}`, message }]);
  }
  return { fields: parsed.data, files: files as ImportUpload["files"] };
}
