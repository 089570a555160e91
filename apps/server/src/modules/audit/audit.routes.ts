import { Readable } from "node:stream";
import { AUDIT_CSV_FILE, auditFilterSchema, auditListQuerySchema, auditListResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { mediaResponse } from "../../lib/media-response.js";
import { takeDownload } from "../downloads/downloads.service.js";
import { AUDIT_READER_ROLES } from "./audit.policy.js";
import { auditCsv, listAuditPage } from "./audit.service.js";

const tags = ["audit"];
const errors = errorResponses(400, 401, 403);

// Read only, on purpose: no route changes or deletes an audit row, so nobody can cover
// their tracks through the API (rows are only ever inserted with the change they record).
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  // onRequest: anyone but a super admin is refused before the query is even read.
  const onRequest = app.requireRoles(...AUDIT_READER_ROLES);

  app.get(
    "/audit",
    {
      onRequest,
      schema: {
        tags,
        summary: "The audit log, newest first, filtered and paged",
        operationId: "listAuditEntries",
        querystring: auditListQuerySchema,
        response: { 200: auditListResponseSchema, ...errors },
      },
    },
    async (request) => listAuditPage(db, request.query),
  );

  app.get(
    "/audit/export.csv",
    {
      onRequest,
      schema: {
        tags,
        summary: "The filtered audit log as CSV (formula-looking cells defused; a download, within the per-user download limit)",
        operationId: "exportAuditCsv",
        querystring: auditFilterSchema,
        response: { 200: mediaResponse("text/csv", "The audit log as a CSV file (a download)"), ...errors, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      await takeDownload(ctx, request.user.id);
      return (
        reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${AUDIT_CSV_FILE}"`)
          .header("cache-control", "no-store")
          // Fastify sends a stream as it is, without the serializer.
          .send(Readable.from(auditCsv(db, request.query)) as unknown as string)
      );
    },
  );
};
