import { z } from "zod";

const engineSchema = z.enum(["embedded", "postgres"]);

/** GET /health-check/ready when the database answers and every migration is applied (200). */
export const readySchema = z.object({
  status: z.literal("ready"),
  database: engineSchema,
  migrations: z.object({
    /** How many of the server's migrations the database has. */
    applied: z.number().int(),
    /** The newest migration the server knows (and the database has). */
    latest: z.string(),
  }),
});
export type ReadyResponse = z.infer<typeof readySchema>;

export const NOT_READY_REASONS = ["database_unreachable", "migrations_pending"] as const;

/**
 * GET /health-check/ready otherwise (503): a load balancer only needs the status, a person
 * reading it gets the reason in words. Database errors stay in the server log.
 */
export const notReadySchema = z.object({
  status: z.literal("not_ready"),
  database: engineSchema,
  reason: z.enum(NOT_READY_REASONS),
  message: z.string(),
  migrations: z
    .object({
      applied: z.number().int(),
      latest: z.string().nullable(),
      pending: z.array(z.string()),
    })
    .optional(),
});
export type NotReadyResponse = z.infer<typeof notReadySchema>;
