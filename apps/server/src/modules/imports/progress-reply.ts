import { PassThrough } from "node:stream";
import { IMPORT_PROGRESS_TYPE, MESSAGES } from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors.js";
import { inChunks } from "../../lib/json-rows.js";
import { yieldToLoop } from "../../lib/yield-to-loop.js";
import type { StageListener } from "./imports.service.js";

/**
 * The result as JSON text, its student list stringified a thousand at a time: a 25,000-student
 * preview in one JSON.stringify would hold the event loop for a tenth of a second.
 */
async function stringifyResult(result: { processedStudentDetails: unknown[] }): Promise<string> {
  const { processedStudentDetails, ...rest } = result;
  const pieces: string[] = [];
  for (const chunk of inChunks(processedStudentDetails, 1000)) {
    pieces.push(JSON.stringify(chunk).slice(1, -1));
    await yieldToLoop();
  }
  return `{"processedStudentDetails":[${pieces.join(",")}],${JSON.stringify(rest).slice(1)}`;
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
  if (!(request.headers.accept ?? "").includes(IMPORT_PROGRESS_TYPE)) {
    const result = await work(() => {});
    return reply.header("content-type", "application/json; charset=utf-8").send(await stringifyResult(result));
  }
  const stream = new PassThrough();
  reply.header("content-type", `${IMPORT_PROGRESS_TYPE}; charset=utf-8`).header("cache-control", "no-store").send(stream);
  try {
    const result = await work((stage) => stream.write(`${JSON.stringify({ type: "stage", stage })}\n`));
    stream.write('{"type":"result","data":');
    stream.end(`${await stringifyResult(result)}}\n`);
  } catch (error) {
    stream.end(`${errorLine(request, error)}\n`);
  }
  return reply;
}
