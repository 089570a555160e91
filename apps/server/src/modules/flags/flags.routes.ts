import { PassThrough } from "node:stream";
import {
  confirmFlagImportRequestSchema,
  confirmFlagImportResponseSchema,
  errorBodySchema,
  FLAG_FILE_FIELDS,
  FLAG_FILE_LABELS,
  IMPORT_LIMITS,
  processFlagsErrorSchema,
  processFlagsFieldsSchema,
  processFlagsResponseSchema,
} from "@tally/contract";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { AppError } from "../../lib/errors.js";
import { writeJsonWithLargeArray } from "../../lib/json-stream.js";
import { multipartFormOnly, readReportUpload, reportUploadForm } from "../../lib/report-upload.js";
import { FLAG_UPLOADERS } from "./flags.policy.js";
import { confirmFlagImport, FlagValidationError, processFlags } from "./flags.service.js";

/** Room for the contract's 50,000 rows as the page sends them back. */
const CONFIRM_BODY_LIMIT = 32 * 1024 * 1024;

const UPLOAD_RULES = {
  fileFields: FLAG_FILE_FIELDS,
  labels: FLAG_FILE_LABELS,
  fieldsSchema: processFlagsFieldsSchema,
  maxFileBytes: IMPORT_LIMITS.maxFileBytes,
};

export const flagsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["flag-uploader"];
  // onRequest: other roles are refused before their upload is read.
  const superAdmin = app.requirePolicy(FLAG_UPLOADERS);

  app.post(
    "/flag-upload/process-flags",
    {
      onRequest: superAdmin,
      preParsing: multipartFormOnly(FLAG_FILE_FIELDS.length),
      schema: {
        tags,
        summary: "Calculate a week's flags from the three reports, for review",
        operationId: "processFlags",
        consumes: ["multipart/form-data"],
        multipartForm: reportUploadForm(UPLOAD_RULES),
        // The handler's 400s carry the spec's fields; one Fastify makes before the handler runs
        // carries the usual error body only, and must not fail this schema (it became a 500).
        response: { 200: processFlagsResponseSchema, 400: processFlagsErrorSchema.or(errorBodySchema), ...errorResponses(401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      try {
        const upload = await readReportUpload(request, UPLOAD_RULES);
        const result = await processFlags(ctx, request.user.id, upload);
        // Thousands of rows: streamed in pieces rather than validated and stringified at once.
        const stream = new PassThrough();
        (reply as FastifyReply).header("content-type", "application/json; charset=utf-8").send(stream);
        await writeJsonWithLargeArray(stream, result, "data");
        stream.end();
        return reply;
      } catch (error) {
        // Every 400 of this form carries the spec's fields, so the page shows one kind of error.
        if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
        return reply.status(400).send({
          error: error.message,
          code: error.code,
          status: "error",
          message: error instanceof FlagValidationError ? "File validation failed." : error.message,
          validationErrors: error instanceof FlagValidationError ? error.validationErrors : [error.message],
          data: [],
        });
      }
    },
  );
  app.post(
    "/flag-upload/confirm-flag-import",
    {
      onRequest: superAdmin,
      // The page sends back every kept row as it received it: 5,000 students are about 1.4 MB.
      bodyLimit: CONFIRM_BODY_LIMIT,
      schema: {
        tags,
        summary: "Import the reviewed flags of a processed run",
        operationId: "confirmFlagImport",
        description: `The body may be up to ${CONFIRM_BODY_LIMIT / (1024 * 1024)} MB: every kept row, as the page received it.`,
        body: confirmFlagImportRequestSchema,
        response: { 200: confirmFlagImportResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => confirmFlagImport(ctx, request.user.id, request.body),
  );
};
