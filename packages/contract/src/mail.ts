import { z } from "zod";
import { MAX_DB_ID } from "./common.js";

/** GET /mail/outbox (super admins): mail kept in the database when no SMTP server is configured, one-time links withheld. */
export const outboxQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(MAX_DB_ID).default(0),
});
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;

export const outboxResponseSchema = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      to_address: z.string(),
      subject: z.string(),
      text_body: z.string(),
      created_at: z.string(),
      sent_at: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
});
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;
