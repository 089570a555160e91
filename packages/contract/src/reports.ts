import { z } from "zod";
import { emailPattern } from "./auth.js";
import { dbIdSchema } from "./common.js";
import { dashboardFilterQuerySchema, queryBooleanSchema } from "./dashboard-filter.js";

/*
 * Reports (issue 13): the PDF, the report data, the e-mailed report and the CSV export.
 *
 *   GET  /api/pdf-reports/generate   → application/pdf, attachment named REPORT_FILES.pdf
 *   GET  /api/reports/data           → ReportDataResponse (JSON)
 *   POST /api/email/send-report      → SendReportResponse; the PDF of the body's filters attached
 *   GET  /api/reports/students.csv   → text/csv (UTF-8 with BOM), attachment named REPORT_FILES.csv
 *
 * Every route is scoped to the caller on the server: a school, cohort or team outside the
 * caller's scope answers 404 as if it did not exist. The PDF, e-mail and CSV are exports and
 * also need the export right (REPORT_MESSAGES.exportOff* on 403). Totals and names sent in the
 * PDF query are accepted for compatibility with the spec's call and never printed: the server
 * counts and names everything itself.
 */

/** The fixed file names of the downloads (Content-Disposition: attachment). */
export const REPORT_FILES = {
  pdf: "tally-attendance-report.pdf",
  csv: "tally-students.csv",
} as const;

export const REPORT_LIMITS = {
  /** Spec §9: the PDF's students table holds at most this many rows. */
  pdfStudentLimit: 100,
  /** Spec §9: the web aborts the PDF request after this long. */
  pdfTimeoutMs: 30_000,
  /** Report e-mails one user may send in a rolling hour (no spam relay). */
  emailsPerHour: 20,
} as const;

/** The spec's export texts (§4, §5, §8) and the server's refusals. */
export const REPORT_MESSAGES = {
  pdfError: "Error generating PDF. Please try again with fewer filters.",
  emailRequired: "Please enter an email address",
  emailSent: "Report sent successfully!",
  emailError: "Error sending email. Please try again.",
  /** 403 for a school user whose school has export switched off. */
  exportOffSchool: "Export is switched off for your school. Please ask an administrator to enable it.",
  /** 403 for a district user when a school of the report has export switched off. */
  exportOffDistrict: "Export is switched off for at least one school in this report. Choose a school where export is enabled.",
  /** 429 past REPORT_LIMITS.emailsPerHour. */
  emailRateLimited: "You have sent 20 reports in the last hour. Please wait before sending another one.",
} as const;

/** The report's filters: one school, cohort and team at most, and the search text (the dashboard's choice). */
export const reportFilterQuerySchema = z.object({
  schoolId: dbIdSchema.optional(),
  cohortId: dbIdSchema.optional(),
  teamId: dbIdSchema.optional(),
  /** The dashboard's search, read as the dashboard reads it (accents, case, "Last, First"). */
  q: dashboardFilterQuerySchema.shape.q,
});
export type ReportFilter = z.output<typeof reportFilterQuerySchema>;

const ignoredCount = z.coerce.number().int().min(0).optional();
const ignoredName = z.string().max(300).optional();

/** GET /pdf-reports/generate: the spec's query. Totals and names are accepted, never printed. */
export const pdfReportQuerySchema = reportFilterQuerySchema.extend({
  totalSchools: ignoredCount,
  totalStudents: ignoredCount,
  totalCohorts: ignoredCount,
  totalTeams: ignoredCount,
  schoolName: ignoredName,
  cohortName: ignoredName,
  teamName: ignoredName,
  includeStudents: queryBooleanSchema.default(true),
  studentLimit: z.coerce
    .number({ error: "studentLimit must be a whole number" })
    .int("studentLimit must be a whole number")
    .min(0, "studentLimit must be between 0 and 100")
    .max(REPORT_LIMITS.pdfStudentLimit, "studentLimit must be between 0 and 100")
    .default(REPORT_LIMITS.pdfStudentLimit),
});
export type PdfReportQuery = z.output<typeof pdfReportQuerySchema>;
/** What the web sends (before parsing). */
export type PdfReportParams = { [K in keyof PdfReportQuery]?: string | number | boolean | undefined };

/** GET /reports/data. simplified=true (the default) leaves out the students' e-mail addresses. */
export const reportDataQuerySchema = reportFilterQuerySchema.extend({
  simplified: queryBooleanSchema.default(true).describe("true (the default) leaves out the students' e-mail addresses"),
});
export type ReportDataQuery = z.output<typeof reportDataQuerySchema>;

/** One student row of a report: current school, cohort and team, and attendance shares (0–100, null without records). */
export const reportStudentSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  /** Present only when simplified=false. */
  email: z.string().nullable().optional(),
  school_name: z.string().nullable(),
  cohort_name: z.string().nullable(),
  team_name: z.string().nullable(),
  presentPct: z.number().int().nullable(),
  latePct: z.number().int().nullable(),
  absentPct: z.number().int().nullable(),
});
export type ReportStudent = z.infer<typeof reportStudentSchema>;

export const reportSummarySchema = z.object({
  schoolCount: z.number().int(),
  studentCount: z.number().int(),
  cohortCount: z.number().int(),
  teamCount: z.number().int(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportDataResponseSchema = z.object({
  /** Every student of the filters (the same rows as the CSV). */
  students: z.array(reportStudentSchema),
  summary: reportSummarySchema,
});
export type ReportDataResponse = z.infer<typeof reportDataResponseSchema>;

/** Addresses one report e-mail may go to, To and Cc together (no mass mailing). */
export const REPORT_MAX_RECIPIENTS = 20;

/** Splits "a@x.test, b@y.test; c@z.test" (or a list of such) into addresses, in order, each once. */
export function splitAddresses(value: string | readonly string[]): string[] {
  const all = (typeof value === "string" ? [value] : value).flatMap((v) => v.split(/[,;\s]+/));
  const seen = new Set<string>();
  return all.filter((a) => a !== "" && !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
}

/**
 * One or more addresses: a string separated by commas, semicolons or spaces, or an array of
 * them. Each is checked; the first bad one is named in the refusal.
 */
const addressListSchema = (field: "To" | "Cc", required: boolean) =>
  z
    .union([z.string().max(10_000), z.array(z.string().max(320)).max(REPORT_MAX_RECIPIENTS)], {
      error: required ? REPORT_MESSAGES.emailRequired : `${field} must be e-mail addresses`,
    })
    .transform((value, ctx) => {
      const addresses = splitAddresses(value);
      if (required && addresses.length === 0) {
        ctx.addIssue({ code: "custom", message: REPORT_MESSAGES.emailRequired });
        return z.NEVER;
      }
      const bad = addresses.find((a) => a.length > 320 || !emailPattern.test(a));
      if (bad !== undefined) {
        ctx.addIssue({ code: "custom", message: `${field}: "${bad.slice(0, 80)}" is not a valid email address` });
        return z.NEVER;
      }
      return addresses;
    });

/**
 * POST /email/send-report: the spec's body, plus the report's filters (optional, additive):
 * the attached PDF is the one GET /pdf-reports/generate gives for them. The content is sent as
 * plain text, never as HTML. `recipient` (the spec's field) may hold several addresses; `cc`
 * adds copies. The mail's Reply-To is the sender's own address.
 */
export const sendReportRequestSchema = z
  .object({
    recipient: addressListSchema("To", true),
    cc: addressListSchema("Cc", false).optional().default([]),
    recipientName: z.string().trim().max(200).optional().default(""),
    subject: z
      .string()
      .max(300)
      // One header line: no CR/LF can smuggle in another header.
      .transform((v) => v.replace(/[\r\n]+/g, " ").trim())
      .optional()
      .default(""),
    content: z.string().max(20_000).optional().default(""),
  })
  .extend(reportFilterQuerySchema.shape)
  .strict()
  .superRefine((body, ctx) => {
    if (body.recipient.length + body.cc.length > REPORT_MAX_RECIPIENTS) {
      ctx.addIssue({ code: "custom", path: ["recipient"], message: `At most ${REPORT_MAX_RECIPIENTS} addresses, To and Cc together` });
    }
  });
export type SendReportRequest = z.input<typeof sendReportRequestSchema>;

export const sendReportResponseSchema = z.object({ message: z.string() });
export type SendReportResponse = z.infer<typeof sendReportResponseSchema>;

/** GET /reports/students.csv: the dashboard's filters (schoolId, cohortId, teamId, q); every row, not 100. */
export const studentsCsvQuerySchema = reportFilterQuerySchema;

/** The CSV's header row, in column order. */
export const STUDENTS_CSV_COLUMNS = [
  "First name",
  "Last name",
  "School",
  "Cohort",
  "Team",
  "Present %",
  "Late %",
  "Absent %",
] as const;
