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
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { mediaResponse } from "../../lib/media-response.js";
import { openExport } from "../exports/exports.service.js";
import { renderReportPdf } from "./pdf-report.js";
import { sendReport } from "./report-email.js";
import { allReportStudents, buildReportModel, getReportData, reportExport, resolveReport } from "./reports.service.js";
import { csvHead, csvRows } from "./students-csv.js";

const tags = ["reports"];
// Fastify sends a Buffer or a stream as it is, without the serializer: the payload is only typed
// as the string mediaResponse describes.
const pdfFile = mediaResponse("application/pdf", "The report as a PDF file (a download)", { binary: true });
const csvFile = mediaResponse("text/csv", "The students as a CSV file, UTF-8 with a byte order mark (a download)");
const asFileBody = (payload: Buffer | Readable) => payload as unknown as string;
// The export right is checked (403 with the spec's reason); a school, cohort or team outside the caller's scope is a 404.
const exportErrors = errorResponses(400, 401, 403, 404);

const attachment = (name: string) => `attachment; filename="${name}"`;

export const reportsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    "/pdf-reports/generate",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The report of the filters as a PDF",
        operationId: "generatePdfReport",
        querystring: pdfReportQuerySchema,
        response: { 200: pdfFile, ...exportErrors, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const report = await resolveReport(db, request.user, q);
      const ticket = await openExport(ctx, request.user, reportExport(request.user, report, "pdf"));
      const model = await buildReportModel(db, request.user, report, {
        includeStudents: q.includeStudents,
        studentLimit: q.studentLimit,
        now: ctx.clock.now(),
      });
      const pdf = await renderReportPdf(model);
      ticket.record(model.studentIds);
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
      schema: {
        tags,
        summary: "Every student of the report filters, with the totals",
        operationId: "getReportData",
        querystring: reportDataQuerySchema,
        response: { 200: reportDataResponseSchema, ...exportErrors, ...errorResponses(429) },
      },
    },
    async (request) => getReportData(ctx, request.user, request.query, request.query.simplified),
  );

  app.get(
    "/reports/students.csv",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Every student of the report filters as CSV",
        operationId: "exportStudentsCsv",
        querystring: studentsCsvQuerySchema,
        response: { 200: csvFile, ...exportErrors, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const user = request.user;
      const report = await resolveReport(db, user, request.query);
      const ticket = await openExport(ctx, user, reportExport(user, report, "csv"));
      // Streamed a page of students at a time: memory stays flat however many rows there are.
      // Every student sent is recorded, when the file ends (or breaks off: then those sent so far).
      async function* csv() {
        yield csvHead();
        for await (const page of ticket.stream(allReportStudents(db, user, report.filter), (p) => p.map((s) => s.id))) yield csvRows(page);
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
        summary: "E-mail the report of the filters as a PDF",
        operationId: "emailReport",
        body: sendReportRequestSchema,
        response: { 200: sendReportResponseSchema, ...exportErrors, ...errorResponses(429, 502) },
      },
    },
    async (request) => sendReport(ctx, request.user, request.body, request.log),
  );
};
