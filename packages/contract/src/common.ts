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

export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });

export const schoolRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type SchoolRef = z.infer<typeof schoolRefSchema>;

export const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["embedded", "postgres"]),
  time: z.string(),
});
