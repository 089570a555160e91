import { z } from "zod";
import { ERROR_CODES } from "./messages.js";

/** Body of every error reply. `error` is the text to show; `code` is stable for programs. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageSchema>;

/** Largest value of a PostgreSQL integer column: a larger id can only be "not found". */
export const MAX_DB_ID = 2_147_483_647;

export const dbIdSchema = z.coerce
  .number({ error: "must be a positive whole number" })
  .int("must be a positive whole number")
  .positive("must be a positive whole number")
  .max(MAX_DB_ID, "is too large");

/**
 * Whether a YYYY-MM-DD string names a real calendar day (2025-02-30 does not). Never throws:
 * zod runs a refinement even after the format check before it failed.
 */
export function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** A whole day as YYYY-MM-DD, as the audit and login-history filters take it. */
export const isoDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates must look like YYYY-MM-DD")
  .refine(isCalendarDay, "Dates must be real calendar days");

/** A date range whose end comes first: the filters' one text for it (audit log, login history). */
export const DATES_OUT_OF_ORDER = "The end date must not be before the start date";

/** `limit` of a paged list: a whole number from 1 to `max`, `fallback` when absent. */
export function pageLimitSchema(max: number, fallback: number) {
  const message = `limit must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).default(fallback);
}

/** `offset` of a paged list: how many rows to skip. */
export const pageOffsetSchema = z.coerce
  .number({ error: "offset must be a whole number of 0 or more" })
  .int("offset must be a whole number of 0 or more")
  .min(0, "offset must be a whole number of 0 or more")
  .max(MAX_DB_ID, "offset is too large")
  .default(0);

export const idParamSchema = z.object({ id: dbIdSchema });
export type IdParam = z.infer<typeof idParamSchema>;

export const schoolRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type SchoolRef = z.infer<typeof schoolRefSchema>;

/** GET /health-check. */
export const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["embedded", "postgres"]),
  time: z.string(),
});
export type HealthResponse = z.infer<typeof healthSchema>;
