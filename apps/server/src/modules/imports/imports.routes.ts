import {
  IMPORT_FILE_FIELDS,
  idParamSchema,
  importCommitSchema,
  importPreviewSchema,
  importsQuerySchema,
  importsResponseSchema,
  importUndoConflictSchema,
  importUndoRequestSchema,
  importUndoResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { multipartFormOnly } from "../../lib/report-upload.js";
import { listImports, undoImport } from "./import-batches.service.js";
import { IMPORT_FORM, readImportUpload } from "./import-upload.js";
import { IMPORTERS } from "./imports.policy.js";
import { commitImport, importPreviewCache, previewImport } from "./imports.service.js";
import { replyWithProgress } from "./import-progress-stream.js";

export const importsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["imports"];
  const previews = importPreviewCache();
  app.addHook("onClose", async () => previews.clear());
  // onRequest: other roles are refused before their upload is read.
  const admin = app.requirePolicy(IMPORTERS);
  const uploadSchema = {
    tags,
    consumes: ["multipart/form-data"],
    multipartForm: IMPORT_FORM,
    description: "Either `cohortId`, or the new cohort's `cohortName`, `programType`, `startDate`, `endDate` and `totalExpectedHours`.",
  };
  const uploadErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);
  const formOnly = multipartFormOnly(IMPORT_FILE_FIELDS.length);

  app.post(
    "/flag-upload/preview-weekly-data",
    {
      onRequest: admin,
      preParsing: formOnly,
      schema: {
        ...uploadSchema,
        summary: "Preview what a week's three reports would import",
        operationId: "previewWeeklyData",
        response: { 200: importPreviewSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readImportUpload(request);
      return replyWithProgress(request, reply, (onStage) => previewImport(ctx, previews, request.user.id, upload, onStage));
    },
  );
  app.post(
    "/flag-upload/commit-weekly-data",
    {
      onRequest: admin,
      preParsing: formOnly,
      schema: {
        ...uploadSchema,
        summary: "Import a week's three reports as one import batch",
        operationId: "commitWeeklyData",
        response: { 200: importCommitSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readImportUpload(request);
      return replyWithProgress(request, reply, (onStage) => commitImport(ctx, previews, request.user.id, upload, onStage));
    },
  );
  app.get(
    "/imports",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "The import batches, newest first",
        operationId: "listImports",
        querystring: importsQuerySchema,
        response: { 200: importsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await listImports(ctx.database.db, request.query) }),
  );
  app.post(
    "/imports/:id/undo",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Undo an import batch (the newest of its cohort)",
        operationId: "undoImport",
        params: idParamSchema,
        body: importUndoRequestSchema.nullish(),
        response: { 200: importUndoResponseSchema, ...errorResponses(400, 401, 403, 404), 409: importUndoConflictSchema },
      },
    },
    async (request) =>
      undoImport(ctx, request.user.id, request.params.id, { keepEditedStudents: request.body?.keepEditedStudents ?? false }),
  );
};
