import { IMPORT_FILE_FIELDS, IMPORT_FILE_LABELS, IMPORT_LIMITS, importFormFieldsSchema } from "@tally/contract";
import type { FastifyRequest } from "fastify";
import { readReportUpload, reportUploadForm } from "../../lib/report-upload.js";
import type { ImportUpload } from "./imports.service.js";

const RULES = {
  fileFields: IMPORT_FILE_FIELDS,
  labels: IMPORT_FILE_LABELS,
  fieldsSchema: importFormFieldsSchema,
  maxFileBytes: IMPORT_LIMITS.maxFileBytes,
};

/** The weekly import's form as the API document shows it. */
export const IMPORT_FORM = reportUploadForm(RULES);

/** The weekly import's form: its fields and the three reports (30 MB at most in memory). */
export function readImportUpload(request: FastifyRequest): Promise<ImportUpload> {
  return readReportUpload(request, RULES);
}
