import { z } from "zod";
import { dbIdSchema } from "./common.js";
import { dashboardFilterQuerySchema } from "./dashboard-filter.js";

// Issue 30 "Early warning": rules → alerts with evidence → follow-up with notes → a weekly
// digest. The route, field and rule names here are a public interface (fixed by the issue).

export const ALERT_RULES = [
  "attendance_band",
  "consecutive_misses",
  "target_out_of_reach",
  "flags",
  "missing_from_reports",
  "low_hours",
] as const;
export const alertRuleSchema = z.enum(ALERT_RULES, {
  error: `rule must be one of ${ALERT_RULES.join(", ")}`,
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** Urgent first: the order of the call list. */
export const ALERT_SEVERITIES = ["urgent", "warning", "info"] as const;
export const alertSeveritySchema = z.enum(ALERT_SEVERITIES, {
  error: `severity must be one of ${ALERT_SEVERITIES.join(", ")}`,
});
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

export const ALERT_STATES = ["open", "acknowledged", "resolved", "dismissed"] as const;
export const alertStateSchema = z.enum(ALERT_STATES, {
  error: `state must be one of ${ALERT_STATES.join(", ")}`,
});
export type AlertState = z.infer<typeof alertStateSchema>;

const percent = (field: string) =>
  z
    .number({ error: `${field} must be a percentage from 0 to 100` })
    .min(0, `${field} must be a percentage from 0 to 100`)
    .max(100, `${field} must be a percentage from 0 to 100`);
const count = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a whole number from 1 to ${max}` })
    .int(`${field} must be a whole number from 1 to ${max}`)
    .min(1, `${field} must be a whole number from 1 to ${max}`)
    .max(max, `${field} must be a whole number from 1 to ${max}`);

/**
 * Attendance Works' chronic-absence bands on the meetings missed so far: under atRisk %
 * satisfactory, atRisk to under chronic % at risk, chronic to under severe % chronic, severe %
 * or more severe. An alert from the at-risk band up; the band is its level.
 */
export const attendanceBandParamsSchema = z
  .object({
    atRiskPercent: percent("atRiskPercent"),
    chronicPercent: percent("chronicPercent"),
    severePercent: percent("severePercent"),
    /** No judgement before this many meetings were held (one missed meeting of two is not "severe"). */
    minMeetings: count("minMeetings", 100),
  });
/** The band thresholds must rise (checked on the merged params, so an override cannot break it). */
export function bandsRise(p: { atRiskPercent: number; chronicPercent: number; severePercent: number }): boolean {
  return p.atRiskPercent < p.chronicPercent && p.chronicPercent < p.severePercent;
}
export const consecutiveMissesParamsSchema = z.object({
  count: count("count", 52),
  /** Mentor and advisor meetings as one run (true), or each meeting type its own run. */
  countTogether: z.boolean({ error: "countTogether must be true or false" }),
});
export const targetOutOfReachParamsSchema = z.object({ targetPercent: percent("targetPercent") });
export const flagsParamsSchema = z.object({
  perWeek: count("perWeek", 50),
  sameCodeWeeks: count("sameCodeWeeks", 52),
});
export const missingFromReportsParamsSchema = z.object({
  /** Also raise for CRM sessions still "Enrolled" after the week ended. */
  crmEnrolled: z.boolean({ error: "crmEnrolled must be true or false" }),
});
export const lowHoursParamsSchema = z.object({ percentOfExpected: percent("percentOfExpected") });

export const ALERT_RULE_PARAMS = {
  attendance_band: attendanceBandParamsSchema,
  consecutive_misses: consecutiveMissesParamsSchema,
  target_out_of_reach: targetOutOfReachParamsSchema,
  flags: flagsParamsSchema,
  missing_from_reports: missingFromReportsParamsSchema,
  low_hours: lowHoursParamsSchema,
} as const;
export type AlertRuleParams = { [R in AlertRule]: z.infer<(typeof ALERT_RULE_PARAMS)[R]> };

/** One rule as the programme sets it. params are checked against the rule's own schema. */
export const alertRuleSettingSchema = z
  .object({
    rule: alertRuleSchema,
    enabled: z.boolean({ error: "enabled must be true or false" }),
    severity: alertSeveritySchema,
    params: z.record(z.string(), z.unknown()),
  })
  .superRefine((setting, ctx) => {
    const parsed = ALERT_RULE_PARAMS[setting.rule].strict().safeParse(setting.params);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: ["params", ...issue.path] });
    } else if (setting.rule === "attendance_band" && !bandsRise(parsed.data as AlertRuleParams["attendance_band"])) {
      ctx.addIssue({ code: "custom", message: "the bands must rise: atRiskPercent < chronicPercent < severePercent", path: ["params", "severePercent"] });
    }
  });
export type AlertRuleSetting = z.infer<typeof alertRuleSettingSchema>;

/** A cohort's change to one rule: what it leaves out comes from the programme's setting. */
export const alertRuleOverrideSchema = z.object({
  cohortId: dbIdSchema,
  rule: alertRuleSchema,
  enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
  severity: alertSeveritySchema.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type AlertRuleOverride = z.infer<typeof alertRuleOverrideSchema>;

/** The programme's meeting schedule and how late counts: what "missed" and "remaining" mean. */
export const alertScheduleSchema = z.object({
  mentorMeetingsPerWeek: z.number().int().min(0).max(7),
  advisorMeetingsPerWeek: z.number().int().min(0).max(7),
  /** Late counts as attended (the default) or as missed, for every rule. */
  lateCountsAs: z.enum(["attended", "missed"], { error: "lateCountsAs must be attended or missed" }),
  /** The weekly digest: Monday 07:00 in timeZone, or right after each committed import. */
  digestWhen: z.enum(["monday_morning", "after_import"], { error: "digestWhen must be monday_morning or after_import" }),
  /** An IANA time zone, e.g. Europe/London. */
  timeZone: z.string().min(1).max(64),
});
export type AlertSchedule = z.infer<typeof alertScheduleSchema>;

/** PUT /api/alert-rules and POST /api/alert-rules/preview. schedule left out keeps the saved one. */
export const alertRulesBodySchema = z
  .object({
    rules: z.array(alertRuleSettingSchema).max(ALERT_RULES.length),
    cohortOverrides: z.array(alertRuleOverrideSchema).max(6000),
    schedule: alertScheduleSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.rules.forEach((r, i) => {
      if (seen.has(r.rule)) ctx.addIssue({ code: "custom", message: `rule ${r.rule} is named twice`, path: ["rules", i, "rule"] });
      seen.add(r.rule);
    });
    const overrides = new Set<string>();
    body.cohortOverrides.forEach((o, i) => {
      const key = `${o.cohortId}:${o.rule}`;
      if (overrides.has(key)) ctx.addIssue({ code: "custom", message: `cohort ${o.cohortId} overrides ${o.rule} twice`, path: ["cohortOverrides", i] });
      overrides.add(key);
      if (o.params !== undefined) {
        // A partial override is merged over the programme's params, so only its own fields are checked here.
        const partial = ALERT_RULE_PARAMS[o.rule].partial().strict().safeParse(o.params);
        if (!partial.success) {
          for (const issue of partial.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: ["cohortOverrides", i, "params", ...issue.path] });
        }
      }
    });
  });
export type AlertRulesBody = z.infer<typeof alertRulesBodySchema>;

/** GET /api/alert-rules: every rule (the cohort's resolved values with ?cohortId=), the overrides, the schedule. */
export const alertRulesSchema = z.object({
  rules: z.array(alertRuleSettingSchema),
  cohortOverrides: z.array(alertRuleOverrideSchema),
  schedule: alertScheduleSchema,
  cohortId: dbIdSchema.nullable().describe("the cohort whose overrides are applied to rules, if asked"),
});
export type AlertRules = z.infer<typeof alertRulesSchema>;
export const alertRulesQuerySchema = z.object({ cohortId: z.coerce.number().int().positive().optional() });

/** A count for every key, as an object (an enum-keyed record lists required keys it does not define in the API document). */
const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int().nonnegative()])) as Record<K, z.ZodNumber>);

export const alertRulesPreviewSchema = z.object({
  counts: countsOf(ALERT_RULES).describe("students each rule would raise now"),
});
export type AlertRulesPreview = z.infer<typeof alertRulesPreviewSchema>;

export const DEFAULT_ALERT_SCHEDULE: AlertSchedule = {
  mentorMeetingsPerWeek: 1,
  advisorMeetingsPerWeek: 1,
  lateCountsAs: "attended",
  digestWhen: "monday_morning",
  timeZone: "Europe/London",
};

/** All six on by default, with the issue's defaults. */
export const DEFAULT_ALERT_RULES: AlertRuleSetting[] = [
  { rule: "attendance_band", enabled: true, severity: "warning", params: { atRiskPercent: 5, chronicPercent: 10, severePercent: 20, minMeetings: 4 } },
  { rule: "consecutive_misses", enabled: true, severity: "urgent", params: { count: 2, countTogether: true } },
  { rule: "target_out_of_reach", enabled: true, severity: "urgent", params: { targetPercent: 80 } },
  { rule: "flags", enabled: true, severity: "warning", params: { perWeek: 3, sameCodeWeeks: 2 } },
  { rule: "missing_from_reports", enabled: true, severity: "info", params: { crmEnrolled: true } },
  { rule: "low_hours", enabled: true, severity: "warning", params: { percentOfExpected: 60 } },
];

/** The rules' names in words (Admin Settings, the call list, the digest). */
export const ALERT_RULE_WORDS: Record<AlertRule, string> = {
  attendance_band: "Attendance band",
  consecutive_misses: "Consecutive misses",
  target_out_of_reach: "Target out of reach",
  flags: "Flags",
  missing_from_reports: "Missing from the week's reports",
  low_hours: "Low hours",
};

/** One missed (or otherwise cited) meeting in an alert's evidence. */
export const alertMeetingSchema = z.object({
  date: z.string().describe("YYYY-MM-DD"),
  week: z.number().int(),
  meetingType: z.enum(["mentor", "advisor"]),
  status: z.enum(["present", "late", "absent"]),
  excused: z.boolean(),
});

/** The figures behind an alert's evidence text; which fields are set depends on the rule. */
export const alertDetailsSchema = z.object({
  /** What makes "worse": the band (1 at risk, 2 chronic, 3 severe), the run length, the flag count … */
  level: z.number().int().nonnegative(),
  meetings: z.array(alertMeetingSchema).optional().describe("the meetings missed that the alert cites"),
  missedPercent: z.number().optional(),
  attendedPercent: z.number().optional(),
  band: z.enum(["at_risk", "chronic", "severe"]).optional(),
  bestPossiblePercent: z.number().optional().describe("target_out_of_reach: attending every remaining meeting"),
  fromWeek: z.number().int().optional().describe("target_out_of_reach: the week from which the target could no longer be reached"),
  targetPercent: z.number().optional(),
  flags: z.array(z.object({ week: z.number().int(), code: z.string(), text: z.string() })).optional(),
  weeks: z.array(z.number().int()).optional(),
  hoursReported: z.number().optional(),
  hoursExpected: z.number().optional(),
});
export type AlertDetails = z.infer<typeof alertDetailsSchema>;

export const alertSchema = z.object({
  id: dbIdSchema,
  studentId: dbIdSchema,
  studentName: z.string(),
  schoolId: dbIdSchema.nullable(),
  schoolName: z.string().nullable(),
  cohortId: dbIdSchema,
  cohortName: z.string(),
  teamName: z.string().nullable(),
  rule: alertRuleSchema,
  severity: alertSeveritySchema,
  state: alertStateSchema,
  evidence: z.string().describe("the evidence in words, with the dates and figures"),
  details: alertDetailsSchema,
  since: z.string().describe("when this episode began (ISO time)"),
  updatedAt: z.string(),
  assigneeId: dbIdSchema.nullable(),
  assigneeName: z.string().nullable(),
  dataWithdrawn: z.boolean().describe("the import that raised it was undone after it was acknowledged"),
});
export type Alert = z.infer<typeof alertSchema>;

const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === "string" ? v.split(",").filter((s) => s !== "") : v), z.array(item).min(1));

/** GET /api/alerts, /api/alerts/summary and /api/alerts.csv. */
export const alertsQuerySchema = z.object({
  state: listOf(alertStateSchema).optional().describe("comma-separated; default open,acknowledged"),
  schoolId: z.coerce.number().int().positive().optional(),
  cohortId: z.coerce.number().int().positive().optional(),
  rule: alertRuleSchema.optional(),
  severity: alertSeveritySchema.optional(),
  assignedToMe: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  studentId: z.coerce.number().int().positive().optional(),
  /** The dashboard's search (its `q`, read the same way): the Needs attention card counts what the other figures count. */
  q: dashboardFilterQuerySchema.shape.q.describe("only the students the dashboard's search text finds"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

export const alertListSchema = z.object({ data: z.array(alertSchema), total: z.number().int().nonnegative() });
export type AlertList = z.infer<typeof alertListSchema>;

/**
 * A count for every value of an enum, as an object with each key listed (a record keyed by an
 * enum is written to the API document as `required` without `properties`, which linters refuse).
 */
export const alertSummarySchema = z.object({
  byState: countsOf(ALERT_STATES),
  bySeverity: countsOf(ALERT_SEVERITIES).describe("open and acknowledged alerts"),
  total: z.number().int().nonnegative().describe("open and acknowledged alerts under the filters (the dashboard card)"),
  studentIds: z.array(dbIdSchema).describe("students with an open or acknowledged alert under the filters (at most 5,000)"),
});
export type AlertSummary = z.infer<typeof alertSummarySchema>;

export const ALERT_EVENT_KINDS = [
  "opened",
  "escalated",
  "acknowledged",
  "resolved",
  "dismissed",
  "assigned",
  "reopened",
  "condition_ended",
  "data_withdrawn",
  "withdrawn",
] as const;
export const alertEventSchema = z.object({
  at: z.string(),
  kind: z.enum(ALERT_EVENT_KINDS),
  userId: dbIdSchema.nullable(),
  userName: z.string().nullable(),
  note: z.string().nullable().describe("the resolution note, the dismissal reason, or what changed"),
});
export type AlertEvent = z.infer<typeof alertEventSchema>;

export const studentAlertsSchema = z.object({
  data: z.array(alertSchema.extend({ timeline: z.array(alertEventSchema) })),
  /** Weeks of the student's cohorts with a follow-up note (the Attendance tab's markers). */
  noteWeeks: z.array(z.object({ cohortId: dbIdSchema, week: z.number().int(), at: z.string() })),
});
export type StudentAlerts = z.infer<typeof studentAlertsSchema>;

const text = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(2000, `${field} must be at most 2000 characters`);
export const alertResolveBodySchema = z.object({ note: text("note") });
export const alertDismissBodySchema = z.object({ reason: text("reason") });
export const alertAssignBodySchema = z.object({ userId: dbIdSchema.nullable() });
export const alertBulkBodySchema = z.object({
  ids: z.array(dbIdSchema).min(1, "ids must name at least one alert").max(500, "ids: at most 500 alerts at once"),
  action: z.enum(["acknowledge", "resolve", "dismiss"], { error: "action must be acknowledge, resolve or dismiss" }),
  note: text("note").optional(),
  reason: text("reason").optional(),
});
export type AlertBulkBody = z.infer<typeof alertBulkBodySchema>;
export const alertBulkResultSchema = z.object({
  updated: z.number().int().nonnegative(),
  skipped: z.array(z.object({ id: dbIdSchema, reason: z.string() })),
});

export const digestPreviewSchema = z.object({
  userId: dbIdSchema,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  alerts: z.number().int().nonnegative(),
  enabled: z.boolean(),
});
export type DigestPreview = z.infer<typeof digestPreviewSchema>;
export const digestPreviewQuerySchema = z.object({ userId: z.coerce.number().int().positive() });
export const digestProfileSchema = z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) });
/** PUT /api/profile/digest's reply: the signed-in user's digest setting as saved. */
export const digestProfileReplySchema = digestProfileSchema;
/** POST /api/digests/test: the admin's own next digest, sent to them now (not the week's delivery). */
export const digestTestResultSchema = z.object({
  to: z.string(),
  subject: z.string(),
  alerts: z.number().int().nonnegative(),
});
export type DigestTestResult = z.infer<typeof digestTestResultSchema>;
/** GET and POST /api/digests/unsubscribe?token=: the signed link of a digest e-mail. */
export const digestUnsubscribeQuerySchema = z.object({
  token: z
    .string({ error: "token is required: open the link from the digest e-mail" })
    .min(1, "token is required: open the link from the digest e-mail")
    .max(2000, "token is not a valid unsubscribe link"),
});
