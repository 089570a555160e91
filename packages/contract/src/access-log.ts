import { z } from "zod";
import { DATES_OUT_OF_ORDER, dbIdSchema, isoDaySchema, pageLimitSchema, pageOffsetSchema } from "./common.js";
import { roleSchema } from "./roles.js";

// Issue 32 "A record of access": every read of one student's records and every export that
// names students, kept per student (FERPA 34 CFR 99.32 asks for a record of each disclosure).

// "data": a bulk read answered as JSON (the report data call, a students page larger than a view).
export const ACCESS_ACTIONS = ["view", "pdf", "csv", "email", "export", "data"] as const;
export const accessActionSchema = z.enum(ACCESS_ACTIONS);
export type AccessAction = z.infer<typeof accessActionSchema>;

export const ACCESS_LOG_LIMITS = { pageSize: 50, maxPageSize: 1000 } as const;

const datesInOrder = (q: { from?: string | undefined; to?: string | undefined }) => !q.from || !q.to || q.from <= q.to;
const datesOutOfOrder = { path: ["to"], message: DATES_OUT_OF_ORDER };

const commonFilters = {
  userId: dbIdSchema.optional(),
  action: accessActionSchema.optional(),
  /** Whole UTC days, both ends included. */
  from: isoDaySchema.optional(),
  to: isoDaySchema.optional(),
  limit: pageLimitSchema(ACCESS_LOG_LIMITS.maxPageSize, ACCESS_LOG_LIMITS.pageSize),
  offset: pageOffsetSchema,
};

/** GET /api/students/:id/access-log: one student's record, filtered and paged. */
export const studentAccessLogQuerySchema = z.object(commonFilters).refine(datesInOrder, datesOutOfOrder);
export type StudentAccessLogQuery = z.infer<typeof studentAccessLogQuerySchema>;

/** GET /api/access-log (super admins): every student's, filtered by user, student and days. */
export const accessLogQuerySchema = z
  .object({ ...commonFilters, studentId: dbIdSchema.optional() })
  .refine(datesInOrder, datesOutOfOrder);
export type AccessLogQuery = z.infer<typeof accessLogQuerySchema>;

export const accessLogEntrySchema = z.object({
  at: z.string().describe("ISO 8601 time of the read or export"),
  userId: z.number().int().describe("the account that read or exported"),
  username: z.string().describe("its username at that time"),
  role: roleSchema.describe("its role at that time"),
  address: z.string().nullable().describe("the client's address (TRUST_PROXY decides whose)"),
  action: accessActionSchema,
  recipient: z.string().optional().describe("an e-mailed report's recipients (and copies)"),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;

export const studentAccessLogResponseSchema = z.object({
  data: z.array(accessLogEntrySchema),
  /** Entries matching the filters, over all pages. */
  total: z.number().int(),
});
export type StudentAccessLogResponse = z.infer<typeof studentAccessLogResponseSchema>;

/** Across students each entry also names the student (an anonymous id once the student is erased). */
export const accessLogResponseSchema = z.object({
  data: z.array(accessLogEntrySchema.extend({ studentId: z.number().int() })),
  total: z.number().int(),
});
export type AccessLogResponse = z.infer<typeof accessLogResponseSchema>;

/** Header row of the Access tab's CSV. */
export const ACCESS_LOG_CSV_COLUMNS = ["Time (UTC)", "User", "Role", "Address", "Action", "Recipient"] as const;

// The bulk-export alarm and retention: GET/PUT /api/settings/privacy (admins).
export const PRIVACY_DEFAULTS = { retentionYears: null, bulkExportThreshold: 500, blockOnAlarm: false } as const;

/** Full exports (filters narrowing nothing but the cohort) by one user in 24 hours that raise the alarm, whatever the threshold. */
export const FULL_EXPORTS_ALARM = 3;

export const privacySettingsSchema = z.object({
  retentionYears: z
    .number({ error: "retentionYears must be a whole number of years from 1 to 50, or null (off)" })
    .int("retentionYears must be a whole number of years from 1 to 50, or null (off)")
    .min(1, "retentionYears must be a whole number of years from 1 to 50, or null (off)")
    .max(50, "retentionYears must be a whole number of years from 1 to 50, or null (off)")
    .nullable()
    .describe("remove students whose last cohort ended more than this many years ago; null: off"),
  bulkExportThreshold: z
    .number({ error: "bulkExportThreshold must be a whole number from 1 to 1000000" })
    .int("bulkExportThreshold must be a whole number from 1 to 1000000")
    .min(1, "bulkExportThreshold must be a whole number from 1 to 1000000")
    .max(1_000_000, "bulkExportThreshold must be a whole number from 1 to 1000000")
    .describe("distinct students one user may view or export in a rolling 24 hours before the alarm"),
  blockOnAlarm: z.boolean({ error: "blockOnAlarm must be true or false" }).describe("refuse that user's exports until a super admin clears the alarm"),
});
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;

export const PRIVACY_MESSAGES = {
  exportsBlocked: "Your exports are paused after an unusually large number of student records in 24 hours. A super admin must clear the alarm.",
} as const;

export const clearAlarmResponseSchema = z.object({ cleared: z.boolean() });
