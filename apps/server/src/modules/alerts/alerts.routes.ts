import { Readable } from "node:stream";
import {
  alertAssignBodySchema,
  alertBulkBodySchema,
  alertBulkResultSchema,
  alertDismissBodySchema,
  alertListSchema,
  alertResolveBodySchema,
  alertSchema,
  alertsQuerySchema,
  alertSummarySchema,
  idParamSchema,
  studentAlertsSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { mediaResponse } from "../../lib/media-response.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { assignAlert, bulkChangeAlerts, changeAlertState } from "./alert-actions.service.js";
import { alertsCsvFileName } from "./alerts-csv.js";
import { alertsCsvExport } from "./alerts-csv-export.service.js";
import { listAlerts, listAnswerFor, studentAlerts, summarizeAlerts } from "./alerts-list.service.js";

const tags = ["alerts"];
const filterQuerySchema = alertsQuerySchema.omit({ page: true, pageSize: true });

// The follow-up list and its actions (issue 30). Every route is scoped as the dashboards are;
// who may act on an alert is whoever sees its student, so no route needs a role of its own.
export const alertsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  const answer = listAnswerFor(ctx.database.engine);
  const onRequest = app.authenticate;

  app.get(
    "/alerts",
    {
      onRequest,
      schema: {
        tags,
        summary: "A page of the alerts the caller sees: urgent first, then the oldest",
        operationId: "listAlerts",
        querystring: alertsQuerySchema,
        response: { 200: alertListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => listAlerts(db, request.user, request.query, answer),
  );
  app.get(
    "/alerts/summary",
    {
      onRequest,
      schema: {
        tags,
        summary: "Counts of the alerts the caller sees by state and severity (the dashboard's card)",
        operationId: "summarizeAlerts",
        querystring: filterQuerySchema,
        response: { 200: alertSummarySchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => summarizeAlerts(db, request.user, request.query),
  );
  app.get(
    "/alerts.csv",
    {
      onRequest,
      schema: {
        tags,
        summary: "The alerts list under the filters as CSV (formula-looking cells defused; a download, within the per-user download limit)",
        operationId: "exportAlertsCsv",
        querystring: filterQuerySchema,
        response: { 200: mediaResponse("text/csv", "The alerts as a CSV file (a download)"), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const csv = await alertsCsvExport(ctx, request.user, request.query);
      return (
        reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${alertsCsvFileName(ctx.clock.now())}"`)
          .header("cache-control", "no-store")
          .send(Readable.from(csv) as unknown as string)
      );
    },
  );
  app.get(
    "/students/:id/alerts",
    {
      onRequest,
      schema: {
        tags,
        summary: "A student's alerts, each with its timeline, and the weeks of the follow-up notes",
        operationId: "getStudentAlerts",
        params: idParamSchema,
        response: { 200: studentAlertsSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const alerts = await studentAlerts(db, request.user, request.params.id);
      recordAccess(ctx, request.user, { action: "view", studentIds: [request.params.id] });
      return alerts;
    },
  );

  const actionErrors = errorResponses(400, 401, 404, 409);
  app.post(
    "/alerts/:id/acknowledge",
    {
      onRequest,
      schema: {
        tags,
        summary: "Acknowledge an open alert (who and when are kept)",
        operationId: "acknowledgeAlert",
        params: idParamSchema,
        response: { 200: alertSchema, ...actionErrors },
      },
    },
    async (request) => changeAlertState(ctx, request.user, request.params.id, "acknowledge", null),
  );
  app.post(
    "/alerts/:id/resolve",
    {
      onRequest,
      schema: {
        tags,
        summary: "Resolve an open or acknowledged alert with a follow-up note",
        operationId: "resolveAlert",
        params: idParamSchema,
        body: alertResolveBodySchema,
        response: { 200: alertSchema, ...actionErrors },
      },
    },
    async (request) => changeAlertState(ctx, request.user, request.params.id, "resolve", request.body.note),
  );
  app.post(
    "/alerts/:id/dismiss",
    {
      onRequest,
      schema: {
        tags,
        summary: "Dismiss an open or acknowledged alert with a reason",
        operationId: "dismissAlert",
        params: idParamSchema,
        body: alertDismissBodySchema,
        response: { 200: alertSchema, ...actionErrors },
      },
    },
    async (request) => changeAlertState(ctx, request.user, request.params.id, "dismiss", request.body.reason),
  );
  app.post(
    "/alerts/:id/assign",
    {
      onRequest,
      schema: {
        tags,
        summary: "Assign an alert to an active user who sees the student (admins), or to oneself; unassign it (null)",
        operationId: "assignAlert",
        params: idParamSchema,
        body: alertAssignBodySchema,
        response: { 200: alertSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => assignAlert(ctx, request.user, request.params.id, request.body.userId),
  );
  app.post(
    "/alerts/bulk",
    {
      onRequest,
      schema: {
        tags,
        summary: "Acknowledge, resolve or dismiss many alerts; those not seen or not in a fitting state are skipped with the reason",
        operationId: "bulkChangeAlerts",
        body: alertBulkBodySchema,
        response: { 200: alertBulkResultSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => bulkChangeAlerts(ctx, request.user, request.body),
  );
};
