import { clearAlarmResponseSchema, accessLogQuerySchema, accessLogResponseSchema, idParamSchema, studentAccessLogQuerySchema, studentAccessLogResponseSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { ACCESS_LOG_READER_ROLES, STUDENT_ACCESS_READER_ROLES } from "./access-log.policy.js";
import { accessLog, accessRecorder, closeAccessRecorder, studentAccessLog } from "./access-log.service.js";
import { clearBulkAlarm } from "./bulk-export-alarm.js";

const tags = ["access-log"];

// No route changes or deletes a row of the record of access; the alarm is cleared, never deleted.
export const accessLogRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  accessRecorder(ctx, app.log);
  // A clean shutdown writes every buffered read and export before the database closes.
  app.addHook("onClose", async () => closeAccessRecorder(ctx));

  app.get(
    "/students/:id/access-log",
    {
      onRequest: app.requireRoles(...STUDENT_ACCESS_READER_ROLES),
      schema: {
        tags,
        summary: "Who read or exported this student's records, newest first (admins, within their scope)",
        operationId: "getStudentAccessLog",
        params: idParamSchema,
        querystring: studentAccessLogQuerySchema,
        response: { 200: studentAccessLogResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => studentAccessLog(ctx, request.user, request.params.id, request.query),
  );

  app.get(
    "/access-log",
    {
      onRequest: app.requireRoles(...ACCESS_LOG_READER_ROLES),
      schema: {
        tags,
        summary: "The record of access across every student, newest first (super admins)",
        operationId: "listAccessLog",
        querystring: accessLogQuerySchema,
        response: { 200: accessLogResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => accessLog(ctx, request.query),
  );

  app.delete(
    "/access-log/alarms/:id",
    {
      onRequest: app.requireRoles(...ACCESS_LOG_READER_ROLES),
      schema: {
        tags,
        summary: "Clear a user's bulk-export alarm (the id is the user's), so their exports are allowed again",
        operationId: "clearBulkExportAlarm",
        params: idParamSchema,
        response: { 200: clearAlarmResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => clearBulkAlarm(ctx, request.user.id, request.params.id),
  );
};
