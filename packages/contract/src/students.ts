import { z } from "zod";
import { emailPattern } from "./auth.js";
import { MAX_DB_ID } from "./common.js";
import { dashboardFilterQuerySchema, queryBooleanSchema } from "./dashboard-filter.js";
import { LIMITS } from "./limits.js";
import { MESSAGES } from "./messages.js";
import { hasNameControlCharacter, nameControlCharacterMessage } from "./student-name.js";

// GET /students, GET /students/summary, GET and PUT /students/:id. Timestamps travel as ISO strings.

/** GET /students takes every dashboard filter and a page. */
export const studentsQuerySchema = dashboardFilterQuerySchema.extend({
  page: z.coerce.number({ error: "page must be a whole number" }).int().min(1).max(1_000_000).default(1),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int()
    .min(1)
    .max(LIMITS.studentsPageSize)
    .default(LIMITS.studentsPageSize),
});
export type StudentsQuery = z.infer<typeof studentsQuerySchema>;

const cohortRefSchema = z.object({ id: z.number().int(), name: z.string(), start_date: z.string(), end_date: z.string() });
const teamRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** The fields every student reply carries. */
const studentBaseSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
});

export const studentListItemSchema = studentBaseSchema.extend({
  /** Newest cohort by start_date (null: "No Cohort"). */
  cohort: cohortRefSchema.nullable(),
  /** Team with the newest membership (null: "No Team"). */
  team: teamRefSchema.nullable(),
  /**
   * The newest week of the current cohort with weekly data: its flag count and the share of
   * its meetings attended (present or late, whole percent; null with no meeting recorded).
   * Null when the student has no weekly data in that cohort.
   */
  latestWeek: z
    .object({ week: z.number().int(), flagCount: z.number().int(), attendedPercent: z.number().int().nullable() })
    .nullable(),
});
export type StudentListItem = z.infer<typeof studentListItemSchema>;

export const studentsResponseSchema = z.object({
  data: z.array(studentListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** When a search finds nobody: the closest student name in the caller's scope ("Did you mean …?"), else null. */
  suggestion: z.string().nullable().optional(),
});
export type StudentsResponse = z.infer<typeof studentsResponseSchema>;

/**
 * GET /students/summary takes every dashboard filter: the counts match the list.
 * previousWeek=true adds the same counts as they stood when this week began.
 */
export const studentsSummaryQuerySchema = dashboardFilterQuerySchema.extend({
  previousWeek: queryBooleanSchema.optional(),
});
const summaryCountsSchema = z.object({
  schoolCount: z.number().int(),
  studentCount: z.number().int(),
  cohortCount: z.number().int(),
  teamCount: z.number().int(),
});
export const studentsSummaryResponseSchema = summaryCountsSchema.extend({
  /**
   * With previousWeek=true: the counts under the same filters (search included) from what
   * existed before this week began (Monday 00:00 UTC; students created, cohort and team
   * memberships joined before it), for the week-over-week change. Null when no student under
   * these filters existed then: there is no earlier week to compare with.
   */
  previousWeek: summaryCountsSchema.extend({ weekStart: z.string() }).nullable().optional(),
});
export type StudentsSummary = z.infer<typeof studentsSummaryResponseSchema>;
export type StudentsSummaryQuery = z.infer<typeof studentsSummaryQuerySchema>;

const studentTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  cohort_id: z.number().int(),
  organization_description: z.string().nullable(),
  project_description: z.string().nullable(),
  start_date: z.string().nullable(),
  joined_at: z.string(),
});

export const studentDetailSchema = studentBaseSchema.extend({
  /** The CRM's ID of the student (stored by the flag uploader, corrected by admins); null until known. */
  benefit_assignment_id: z.string().nullable(),
  currentCohort: cohortRefSchema.nullable(),
  activeTeam: studentTeamSchema.nullable(),
  previousTeams: z.array(studentTeamSchema),
  /** Newest first (by start_date). */
  cohorts: z.array(cohortRefSchema),
});
export type StudentDetail = z.infer<typeof studentDetailSchema>;

const nameField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`)
    // After the trim: a line break around the name is dropped, one inside it refused.
    .refine((name) => !hasNameControlCharacter(name), nameControlCharacterMessage(label));

/** PUT /students/:id: fields left out are kept. */
export const updateStudentRequestSchema = z
  .object({
    first_name: nameField("First name").optional(),
    last_name: nameField("Last name").optional(),
    /** Empty or null clears the address. */
    email: z
      .string({ error: MESSAGES.invalidEmail })
      .trim()
      .max(320, MESSAGES.invalidEmail)
      .refine((v) => v === "" || emailPattern.test(v), MESSAGES.invalidEmail)
      .nullable()
      .optional(),
    /** Admins only. Empty or null clears it; an ID another student holds is a 409 naming it. */
    benefit_assignment_id: z
      .string({ error: "Benefit Assignment ID must be text" })
      .trim()
      .max(100, "Benefit Assignment ID must be at most 100 characters")
      .nullable()
      .optional(),
    school_id: z.number({ error: "school_id must be a school id" }).int().positive().max(MAX_DB_ID).optional(),
    team_id: z.number({ error: "team_id must be a team id" }).int().positive().max(MAX_DB_ID).optional(),
  })
  .strict();
export type UpdateStudentRequest = z.infer<typeof updateStudentRequestSchema>;
