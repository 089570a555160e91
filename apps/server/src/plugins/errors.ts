import { MESSAGES } from "@tally/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "../lib/errors.js";

/** Every error leaves as {error, code}; 5xx replies never carry internals. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined) reply.header("retry-after", String(err.retryAfterSeconds));
      return reply
        .status(err.statusCode)
        .send({ ...err.extra, error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: [err.validationContext, ...String(v.instancePath).split("/").filter(Boolean)].join("."),
        message: v.message ?? "Invalid value",
      }));
      return reply.status(400).send({ error: details[0]?.message ?? "Invalid request", code: "VALIDATION_ERROR", details });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, "response did not match its schema");
      return reply.status(500).send({ error: MESSAGES.internal, code: "INTERNAL" });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) {
      return reply.status(413).send({ error: "The upload is too large.", code: "PAYLOAD_TOO_LARGE" });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type): safe to describe.
      return reply.status(status).send({ error: err.message || "Invalid request", code: "VALIDATION_ERROR" });
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: MESSAGES.internal, code: "INTERNAL" });
  });
});
