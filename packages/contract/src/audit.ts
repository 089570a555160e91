import { z } from "zod";
import { DATES_OUT_OF_ORDER, dbIdSchema, isoDaySchema, pageLimitSchema, pageOffsetSchema } from "./common.js";

// Issue 15 "Audit log": GET /api/audit and GET /api/audit/export.csv, super admins only.

export const AUDIT_LIMITS = {
  pageSize: 50,
  maxPageSize: 200,
  /** The longest action or entity name a filter may ask for (names are short dotted words). */
  maxNameLength: 100,
} as const;

const name = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(AUDIT_LIMITS.maxNameLength, `${field} must be at most ${AUDIT_LIMITS.maxNameLength} characters`);

const filterFields = {
  actorId: dbIdSchema.optional(),
  action: name("action").optional(),
  entity: name("entity").optional(),
  from: isoDaySchema.optional(),
  to: isoDaySchema.optional(),
};
const datesInOrder = (q: { from?: string | undefined; to?: string | undefined }) => !q.from || !q.to || q.from <= q.to;
const datesOutOfOrder = { path: ["to"], message: DATES_OUT_OF_ORDER };

/** The filters of the CSV export (the list takes the same, plus paging). Dates are whole UTC days, both ends included. */
export const auditFilterSchema = z.object(filterFields).refine(datesInOrder, datesOutOfOrder);
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditListQuerySchema = z
  .object({
    ...filterFields,
    limit: pageLimitSchema(AUDIT_LIMITS.maxPageSize, AUDIT_LIMITS.pageSize),
    offset: pageOffsetSchema,
  })
  .refine(datesInOrder, datesOutOfOrder);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string().describe("ISO 8601 time of the change"),
  actorId: z.number().int().nullable().describe("null: the system, or an account deleted since"),
  actorName: z.string().nullable(),
  clientAddress: z.string().nullable().describe("the client's address (TRUST_PROXY decides whose); null outside a request"),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  entityName: z.string().nullable().describe("the user's, school's, cohort's or student's name, or the import's week and cohort; null when gone or nameless"),
  before: z.unknown().describe("the changed values before the change (never password hashes or tokens)"),
  after: z.unknown().describe("the changed values after the change"),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditListResponseSchema = z.object({
  rows: z.array(auditEntrySchema),
  /** Rows matching the filters, over all pages. */
  count: z.number().int(),
  /** What the filters can choose from: every actor and action in the log. */
  choices: z.object({
    actors: z.array(z.object({ id: z.number().int(), name: z.string() })),
    actions: z.array(z.string()),
    entities: z.array(z.string()),
  }),
  /** Names of the schools and cohorts the page's before/after values refer to by id. */
  names: z.object({
    schools: z.record(z.string(), z.string()),
    cohorts: z.record(z.string(), z.string()),
  }),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/** Header row of GET /api/audit/export.csv. */
export const AUDIT_CSV_COLUMNS = ["Time (UTC)", "Who", "Client address", "Action", "Entity", "Entity id", "Before", "After"] as const;
export const AUDIT_CSV_FILE = "audit-log.csv";
