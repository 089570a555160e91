import { attendanceRecordSchema, idParamSchema, updateAttendanceRequestSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { editAttendance } from "./attendance-edits.service.js";

// Its own module, above attendance and alerts: a correction re-evaluates alerts, and alerts
// (through reports) already read attendance.
export const attendanceEditsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.put(
    "/attendance/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["attendance"],
        summary: "Correct one meeting's status (as the school's student editing setting allows)",
        operationId: "updateAttendance",
        params: idParamSchema,
        body: updateAttendanceRequestSchema,
        response: { 200: attendanceRecordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => editAttendance(ctx, request.user, request.params.id, request.body),
  );
};
