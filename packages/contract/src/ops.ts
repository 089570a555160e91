import { z } from "zod";

const engineSchema = z.enum(["embedded", "postgres"]);

/** GET /health-check/ready when the database answers and every migration is applied (200). */
export const readySchema = z.object({
  status: z.literal("ready"),
  database: engineSchema,
  migrations: z.object({
    /** How many migrations the database has. */
    applied: z.number().int(),
    /** The newest migration applied to the database. */
    latest: z.string(),
    /** The newest migration this build knows, when it is not `latest` (a database a newer build migrated). */
    expected: z.string().optional(),
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
      /** The newest migration applied to the database (null: none). */
      latest: z.string().nullable(),
      /** The newest migration this build knows, when it is not `latest`. */
      expected: z.string().optional(),
      pending: z.array(z.string()),
    })
    .optional(),
});
export type NotReadyResponse = z.infer<typeof notReadySchema>;
