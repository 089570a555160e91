import { Readable } from "node:stream";
import {
  pdfReportQuerySchema,
  REPORT_FILES,
  reportDataQuerySchema,
  reportDataResponseSchema,
  sendReportRequestSchema,
  sendReportResponseSchema,
  studentsCsvQuerySchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { takeDownload } from "../downloads/downloads.service.js";
import { scopedErrorResponses } from "../scope/error-responses.js";
import { renderReportPdf } from "./pdf-report.js";
import { sendReport } from "./report-email.js";
import { allReportStudents, buildReportModel, getReportData, recordExport, resolveExport } from "./reports.service.js";
import { csvHead, csvRows } from "./students-csv.js";

const tags = ["reports"];
// Binary and streamed replies: documented as a string body. Fastify sends a Buffer or a
// stream as it is, without the serializer, so the payload is only typed as that string.
const fileResponse = z.string().describe("file download");
const asFileBody = (payload: Buffer | Readable) => payload as unknown as string;

const attachment = (name: string) => `attachment; filename="${name}"`;

export const reportsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    "/pdf-reports/generate",
    {
      onRequest: app.authenticate,
      schema: { tags, querystring: pdfReportQuerySchema, response: { 200: fileResponse, ...scopedErrorResponses, ...errorResponses(429) } },
    },
    async (request, reply) => {
      const q = request.query;
      const report = await resolveExport(db, request.user, q);
      await takeDownload(ctx, request.user.id);
      const model = await buildReportModel(db, request.user, report, {
        includeStudents: q.includeStudents,
        studentLimit: q.studentLimit,
        now: ctx.clock.now(),
      });
      const pdf = await renderReportPdf(model);
      await recordExport(db, request.user, "pdf", report, ctx.clock.now());
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", attachment(REPORT_FILES.pdf))
        .header("cache-control", "no-store")
        .send(asFileBody(pdf));
    },
  );

  app.get(
    "/reports/data",
    {
      onRequest: app.authenticate,
      schema: { tags, querystring: reportDataQuerySchema, response: { 200: reportDataResponseSchema, ...scopedErrorResponses } },
    },
    async (request) => getReportData(db, request.user, request.query, request.query.simplified),
  );

  app.get(
    "/reports/students.csv",
    {
      onRequest: app.authenticate,
      schema: { tags, querystring: studentsCsvQuerySchema, response: { 200: fileResponse, ...scopedErrorResponses, ...errorResponses(429) } },
    },
    async (request, reply) => {
      const report = await resolveExport(db, request.user, request.query);
      await takeDownload(ctx, request.user.id);
      const { filter } = report;
      const user = request.user;
      await recordExport(db, user, "csv", report, ctx.clock.now());
      // Streamed a page of students at a time: memory stays flat however many rows there are.
      async function* csv() {
        yield csvHead();
        for await (const page of allReportStudents(db, user, filter)) yield csvRows(page);
      }
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", attachment(REPORT_FILES.csv))
        .header("cache-control", "no-store")
        .send(asFileBody(Readable.from(csv())));
    },
  );

  app.post(
    "/email/send-report",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        body: sendReportRequestSchema,
        response: { 200: sendReportResponseSchema, ...scopedErrorResponses, ...errorResponses(429, 502) },
      },
    },
    async (request) => sendReport(ctx, request.user, request.body, request.log),
  );
};
