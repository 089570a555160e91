import { PassThrough } from "node:stream";
import { IMPORT_PROGRESS_TYPE, MESSAGES } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors.js";
import { inChunks } from "../../lib/json-rows.js";
import { yieldToLoop } from "../../lib/yield-to-loop.js";
import type { StageListener } from "./imports.service.js";

/**
 * Writes the result as JSON, its student list a thousand at a time: a 25,000-student preview
 * in one JSON.stringify, or sent as one string (encoded whole to count its bytes), would hold
 * the event loop for a tenth of a second or more.
 */
async function writeResult(stream: PassThrough, result: { processedStudentDetails: unknown[] }): Promise<void> {
  const { processedStudentDetails, ...rest } = result;
  stream.write('{"processedStudentDetails":[');
  for (const [i, chunk] of inChunks(processedStudentDetails, 1000).entries()) {
    if (i > 0) await yieldToLoop();
    stream.write(`${i === 0 ? "" : ","}${JSON.stringify(chunk).slice(1, -1)}`);
  }
  stream.write(`],${JSON.stringify(rest).slice(1)}`);
}

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
export async function replyWithProgress<T extends { processedStudentDetails: unknown[] }>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (onStage: StageListener) => Promise<T>,
): Promise<FastifyReply> {
  const stream = new PassThrough();
  if (!(request.headers.accept ?? "").includes(IMPORT_PROGRESS_TYPE)) {
    const result = await work(() => {});
    reply.header("content-type", "application/json; charset=utf-8").send(stream);
    await writeResult(stream, result);
    stream.end();
    return reply;
  }
  reply.header("content-type", `${IMPORT_PROGRESS_TYPE}; charset=utf-8`).header("cache-control", "no-store").send(stream);
  try {
    const result = await work((stage) => stream.write(`${JSON.stringify({ type: "stage", stage })}\n`));
    stream.write('{"type":"result","data":');
    await writeResult(stream, result);
    stream.end("}\n");
  } catch (error) {
    stream.end(`${errorLine(request, error)}\n`);
  }
  return reply;
}
