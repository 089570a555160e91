import multipart from "@fastify/multipart";
import {
  idParamSchema,
  importCommitSchema,
  importPreviewSchema,
  importsQuerySchema,
  importsResponseSchema,
  importUndoConflictSchema,
  importUndoRequestSchema,
  importUndoResponseSchema,
} from "@tally/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { listImports, undoImport } from "./import-batches.service.js";
import { readImportUpload } from "./import-upload.js";
import { assertCanImport } from "./imports.policy.js";
import { commitImport, keptImportPreviews, previewImport } from "./imports.service.js";
import { replyWithProgress } from "./progress-reply.js";

export const importsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  // Limits are set per request (readImportUpload); these are the ceilings if a route forgets.
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 3, fields: 12, parts: 15 } });
  const tags = ["imports"];
  const previews = keptImportPreviews();
  app.addHook("onClose", async () => previews.clear());
  // onRequest: other roles are refused before their upload is read.
  const admin = [app.authenticate, async (request: FastifyRequest) => assertCanImport(request.user)];
  const uploadErrors = errorResponses(400, 401, 403, 404, 409, 413);

  app.post(
    "/flag-upload/preview-weekly-data",
    { onRequest: admin, schema: { tags, consumes: ["multipart/form-data"], response: { 200: importPreviewSchema, ...uploadErrors } } },
    async (request, reply) => {
      const upload = await readImportUpload(request);
      return replyWithProgress(request, reply, (onStage) => previewImport(ctx, previews, request.user.id, upload, onStage));
    },
  );
  app.post(
    "/flag-upload/commit-weekly-data",
    { onRequest: admin, schema: { tags, consumes: ["multipart/form-data"], response: { 200: importCommitSchema, ...uploadErrors } } },
    async (request, reply) => {
      const upload = await readImportUpload(request);
      return replyWithProgress(request, reply, (onStage) => commitImport(ctx, previews, request.user.id, upload, onStage));
    },
  );
  app.get(
    "/imports",
    { onRequest: admin, schema: { tags, querystring: importsQuerySchema, response: { 200: importsResponseSchema, ...errorResponses(400, 401, 403) } } },
    async (request) => ({ data: await listImports(ctx.database.db, request.query) }),
  );
  app.post(
    "/imports/:id/undo",
    {
      onRequest: admin,
      schema: {
        tags,
        params: idParamSchema,
        body: importUndoRequestSchema.nullish(),
        response: { 200: importUndoResponseSchema, ...errorResponses(400, 401, 403, 404), 409: importUndoConflictSchema },
      },
    },
    async (request) =>
      undoImport(ctx, request.user.id, request.params.id, { keepEditedStudents: request.body?.keepEditedStudents ?? false }),
  );
};
