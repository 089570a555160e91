import { MESSAGES } from "@tally/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "../lib/errors.js";

/** At most this much of an unknown field's name is repeated back (a name is whatever the client sent). */
const FIELD_ECHO = 60;
/** Unknown fields named per object at most: the reply stays small whatever the body holds. */
const FIELDS_NAMED = 20;

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
      const details = err.validation.flatMap((v) => {
        const path = [err.validationContext, ...String(v.instancePath).split("/").filter(Boolean)];
        // A field the body schema does not name (lib/strict-body.ts): one entry per field, named.
        if (v.keyword === "unrecognized_keys" && Array.isArray(v.params.keys)) {
          return (v.params.keys as unknown[]).slice(0, FIELDS_NAMED).map((key) => {
            const field = [...path.slice(1), String(key).slice(0, FIELD_ECHO)].join(".");
            return { path: [...path, String(key).slice(0, FIELD_ECHO)].join("."), message: `Unknown field ${JSON.stringify(field)}: this call does not take it` };
          });
        }
        return [{ path: path.join("."), message: v.message ?? "Invalid value" }];
      });
      // An unknown field is named first: a misspelt field also reads as a missing one, and the
      // misspelling is the thing to fix.
      details.sort((a, b) => Number(b.message.startsWith("Unknown field")) - Number(a.message.startsWith("Unknown field")));
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
