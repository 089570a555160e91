import { z } from "zod";

/**
 * The schema of a reply that is not JSON (a CSV or PDF file, an event stream). Fastify sends a
 * Buffer or a stream as it is, without the serializer, so the schema only types the payload;
 * the API document (plugins/api-docs.ts) lists the reply under `mediaType`, not application/json.
 */
export function mediaResponse(mediaType: string, description: string, { binary = false } = {}) {
  return z.string().meta({ description, contentMediaType: mediaType, ...(binary ? { format: "binary" } : {}) });
}

/** The media type of a response schema made by mediaResponse; undefined for JSON replies. */
export function mediaTypeOf(schema: unknown): string | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const mediaType = schema.meta()?.contentMediaType;
  return typeof mediaType === "string" ? mediaType : undefined;
}
