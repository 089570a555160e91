import { z } from "zod";
import { emailPattern } from "./auth.js";
import { dbIdSchema, MAX_DB_ID } from "./common.js";
import { LIMITS } from "./limits.js";
import { MESSAGES } from "./messages.js";

// Request and response shapes of the dashboard data calls (spec section 7, "Data").
// Dates travel as YYYY-MM-DD strings, timestamps as ISO strings.

const id = dbIdSchema;
const dateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    message: "must be a real calendar date",
  });

/** `schoolIds=1,2,3`; an empty value means "no filter". */
export const schoolIdListSchema = z
  .string()
  .max(10_000)
  .transform((v, ctx) => {
    const parts = v.split(",").map((p) => p.trim()).filter(Boolean);
    const ids: number[] = [];
    for (const part of parts) {
      const n = Number(part);
      if (!/^\d+$/.test(part) || !Number.isSafeInteger(n) || n < 1 || n > MAX_DB_ID) {
        ctx.addIssue({ code: "custom", message: "schoolIds must be a comma-separated list of school ids" });
        return z.NEVER;
      }
      ids.push(n);
    }
    return ids.length > 0 ? ids : undefined;
  });

/** `true`/`false` in a query string. */
const queryBoolean = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1");

/** Filters shared by the school-scoped lists; they narrow the caller's scope, never widen it. */
export const schoolFilterQuerySchema = z.object({
  school_id: id.optional(),
  schoolIds: schoolIdListSchema.optional(),
  /** Admins may ask to see the dashboard as school users do; school and district users always do. */
  respectVisibility: queryBoolean.optional(),
});
export type SchoolFilterQuery = z.infer<typeof schoolFilterQuerySchema>;

// ---- schools ----

export const schoolSchema = z.object({ id: z.number().int(), name: z.string(), district: z.string() });
export type SchoolItem = z.infer<typeof schoolSchema>;
export const schoolsResponseSchema = z.object({ data: z.array(schoolSchema) });

// ---- cohorts ----

export const cohortSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  program_type: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  total_expected_hours: z.number().nullable(),
});
export type CohortItem = z.infer<typeof cohortSchema>;
export const cohortsQuerySchema = schoolFilterQuerySchema;
export const cohortsResponseSchema = z.object({ data: z.array(cohortSchema) });

// ---- teams ----

export const teamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  school_id: z.number().int(),
  school_name: z.string(),
  cohort_id: z.number().int(),
  cohort_name: z.string(),
  organization_description: z.string().nullable(),
  project_description: z.string().nullable(),
  start_date: z.string().nullable(),
});
export type TeamItem = z.infer<typeof teamSchema>;
export const teamsQuerySchema = schoolFilterQuerySchema.extend({ cohortId: id.optional() });
export const teamsResponseSchema = z.object({ data: z.array(teamSchema) });

// ---- students ----

export const studentFilterQuerySchema = schoolFilterQuerySchema.extend({
  cohortId: id.optional(),
  /** Students whose current team is this one. */
  teamId: id.optional(),
  /** Matches student name, cohort, team or school name (case-insensitive). */
  q: z.string().trim().max(200).optional(),
});
export type StudentFilterQuery = z.infer<typeof studentFilterQuerySchema>;

export const studentsQuerySchema = studentFilterQuerySchema.extend({
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
});
export type StudentListItem = z.infer<typeof studentListItemSchema>;

export const studentsResponseSchema = z.object({
  data: z.array(studentListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type StudentsResponse = z.infer<typeof studentsResponseSchema>;

export const studentsSummaryQuerySchema = studentFilterQuerySchema;
export const studentsSummaryResponseSchema = z.object({
  schoolCount: z.number().int(),
  studentCount: z.number().int(),
  cohortCount: z.number().int(),
  teamCount: z.number().int(),
});
export type StudentsSummary = z.infer<typeof studentsSummaryResponseSchema>;

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
    .max(100, `${label} must be at most 100 characters`);

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
    school_id: z.number({ error: "school_id must be a school id" }).int().positive().max(MAX_DB_ID).optional(),
    team_id: z.number({ error: "team_id must be a team id" }).int().positive().max(MAX_DB_ID).optional(),
  })
  .strict();
export type UpdateStudentRequest = z.infer<typeof updateStudentRequestSchema>;

// ---- weekly data ----

export const weeklyDataQuerySchema = z.object({ cohortId: id.optional() });
export const weeklyDataItemSchema = z.object({
  id: z.number().int(),
  cohort_id: z.number().int(),
  week_number: z.number().int(),
  week_start: z.string().nullable(),
  flags: z.array(z.object({ code: z.string(), text: z.string() })),
  reflection: z.string().nullable(),
  advisor_notes: z.string().nullable(),
  updated_at: z.string(),
  total_hours_reported: z.number().nullable(),
});
export type WeeklyDataItem = z.infer<typeof weeklyDataItemSchema>;
export const weeklyDataResponseSchema = z.object({ data: z.array(weeklyDataItemSchema) });

// ---- attendance ----

export const MEETING_TYPES = ["mentor", "advisor"] as const;
export const ATTENDANCE_STATUSES = ["present", "late", "absent"] as const;

export const studentAttendanceQuerySchema = z
  .object({ cohortId: id.optional(), startDate: dateOnly.optional(), endDate: dateOnly.optional() })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: "startDate must not be after endDate",
    path: ["startDate"],
  });

export const attendanceRecordSchema = z.object({
  id: z.number().int(),
  cohort_id: z.number().int(),
  week_number: z.number().int(),
  date: z.string(),
  meeting_type: z.enum(MEETING_TYPES),
  status: z.enum(ATTENDANCE_STATUSES),
  /** "Week N". */
  formatted_week: z.string(),
});
export type AttendanceRecordItem = z.infer<typeof attendanceRecordSchema>;

const presentLate = z.object({ present: z.number().int(), late: z.number().int() });
export const attendanceWeekSchema = z.object({ week: z.number().int(), mentor: presentLate, advisor: presentLate });
export type AttendanceWeek = z.infer<typeof attendanceWeekSchema>;

export const studentAttendanceResponseSchema = z.object({
  data: z.array(attendanceRecordSchema),
  /** Counts per week, ascending. */
  weeks: z.array(attendanceWeekSchema),
});
export type StudentAttendanceResponse = z.infer<typeof studentAttendanceResponseSchema>;

export const cohortTrendsQuerySchema = schoolFilterQuerySchema.extend({
  cohortId: id.optional(),
  teamId: id.optional(),
  meetingType: z.enum(["mentor", "advisor", "both"], { error: "meetingType must be mentor, advisor or both" }).default("both"),
});
export type CohortTrendsQuery = z.infer<typeof cohortTrendsQuerySchema>;

/** Percentages (0-100, rounded) of that week's records of the meeting type; null = no records (or type not asked for). */
export const trendPointSchema = z.object({
  week: z.number().int(),
  mentorPresent: z.number().int().nullable(),
  mentorLate: z.number().int().nullable(),
  advisorPresent: z.number().int().nullable(),
  advisorLate: z.number().int().nullable(),
});
export type TrendPoint = z.infer<typeof trendPointSchema>;
export const cohortTrendsResponseSchema = z.object({ data: z.array(trendPointSchema) });
