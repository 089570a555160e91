import { PassThrough } from "node:stream";
import { IMPORT_PROGRESS_TYPE, MESSAGES } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors.js";
import { type JsonText, writeJsonText } from "../../lib/json-stream.js";
import type { StageListener } from "./imports.service.js";

function errorLine(request: FastifyRequest, error: unknown): string {
  if (error instanceof AppError) {
    return JSON.stringify({ type: "error", statusCode: error.statusCode, code: error.code, error: error.message });
  }
  request.log.error({ err: error }, "import failed");
  return JSON.stringify({ type: "error", statusCode: 500, code: "INTERNAL", error: MESSAGES.internal });
}

/**
 * Runs an import step. A client that accepts application/x-ndjson gets its stages as they
 * happen and then one result or error line (the import is never one silent minute); others
 * get plain JSON with the usual status codes.
 */
export async function replyWithProgress(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (onStage: StageListener) => Promise<JsonText>,
): Promise<FastifyReply> {
  const stream = new PassThrough();
  if (!(request.headers.accept ?? "").includes(IMPORT_PROGRESS_TYPE)) {
    const result = await work(() => {});
    reply.header("content-type", "application/json; charset=utf-8").send(stream);
    writeJsonText(stream, result);
    stream.end();
    return reply;
  }
  reply.header("content-type", `${IMPORT_PROGRESS_TYPE}; charset=utf-8`).header("cache-control", "no-store").send(stream);
  try {
    const result = await work((stage) => stream.write(`${JSON.stringify({ type: "stage", stage })}\n`));
    stream.write('{"type":"result","data":');
    writeJsonText(stream, result);
    stream.end("}\n");
  } catch (error) {
    stream.end(`${errorLine(request, error)}\n`);
  }
  return reply;
}
