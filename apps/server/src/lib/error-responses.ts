import { errorBodySchema } from "@tally/contract";

/** Response-schema entries for the error statuses a route answers with (all {error, code}). */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorBodySchema])) as Record<S, typeof errorBodySchema>;
}
