import { ADMIN_ROLES, idParamSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { mediaResponse } from "../../lib/media-response.js";
import { exportStudent } from "./student-export.service.js";

const zipFile = mediaResponse(
  "application/zip",
  "A ZIP of summary.pdf, student.json (studentExportSchema) and one CSV per table (UTF-8 with a byte order mark): a download",
  { binary: true },
);

/** Issue 32: a student's own export (admins; a school or district user is refused). */
export const studentExportRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    "/students/:id/export",
    {
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags: ["students"],
        summary: "Everything Tally holds about one student, as a ZIP (PDF summary, CSV per table, JSON)",
        operationId: "exportStudent",
        params: idParamSchema,
        response: { 200: zipFile, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { fileName, zip } = await exportStudent(ctx, request.user, request.params.id);
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="${fileName}"`)
        .header("cache-control", "no-store")
        // Fastify sends a Buffer as it is; the schema only types the payload as text.
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength) as unknown as string);
    },
  );
};
