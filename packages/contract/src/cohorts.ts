import { z } from "zod";
import { dashboardFilterQuerySchema } from "./dashboard-filter.js";

// GET /cohorts and GET /cohorts/active.

export const cohortSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  program_type: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  total_expected_hours: z.number().nullable(),
});
export type CohortItem = z.infer<typeof cohortSchema>;
/** The school filters only. */
export const cohortsQuerySchema = dashboardFilterQuerySchema.pick({ school_id: true, schoolIds: true, respectVisibility: true });
export type CohortsQuery = z.infer<typeof cohortsQuerySchema>;
export const cohortsResponseSchema = z.object({ data: z.array(cohortSchema) });
export type CohortsResponse = z.infer<typeof cohortsResponseSchema>;

// Admin Settings, Cohort & Weekly Data Management (issue 10): the admin list, add and edit.

/** The programmes a cohort can run (the database's check constraint lists the same four). */
export const PROGRAM_TYPES = ["Internship (4 week)", "Internship (6 week)", "Internship (8 week)", "Projects"] as const;
export type ProgramType = (typeof PROGRAM_TYPES)[number];

export const COHORT_NAME_MAX = 100;
/** Far above any real programme (a year of full days is ~3,000 h); stops typos like 40000. */
export const COHORT_HOURS_MAX = 10_000;

const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};
const dateField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
    .refine(isRealDate, `${label} must be a real calendar date`);

const cohortNameField = z
  .string({ error: "Cohort name is required" })
  .trim()
  .min(1, "Cohort name is required")
  .max(COHORT_NAME_MAX, `Cohort name must be at most ${COHORT_NAME_MAX} characters`);
const programTypeField = z.enum(PROGRAM_TYPES, { error: `Program type must be one of: ${PROGRAM_TYPES.join(", ")}` });
const hoursField = z
  .number({ error: "Total expected hours must be a number" })
  .min(0, "Total expected hours must be 0 or more")
  .max(COHORT_HOURS_MAX, `Total expected hours must be at most ${COHORT_HOURS_MAX}`);

export const END_BEFORE_START_MESSAGE = "End date must be after the start date";

/** POST /cohorts. */
export const createCohortRequestSchema = z
  .object({
    name: cohortNameField,
    program_type: programTypeField,
    start_date: dateField("Start date"),
    end_date: dateField("End date"),
    total_expected_hours: hoursField,
  })
  .strict()
  .refine((b) => b.end_date > b.start_date, { message: END_BEFORE_START_MESSAGE, path: ["end_date"] });
export type CreateCohortRequest = z.infer<typeof createCohortRequestSchema>;

/** PATCH /cohorts/:id: fields left out are kept; the server checks the dates against the stored ones. */
export const updateCohortRequestSchema = z
  .object({
    name: cohortNameField.optional(),
    program_type: programTypeField.optional(),
    start_date: dateField("Start date").optional(),
    end_date: dateField("End date").optional(),
    total_expected_hours: hoursField.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Give at least one field to change")
  .refine((b) => !b.start_date || !b.end_date || b.end_date > b.start_date, {
    message: END_BEFORE_START_MESSAGE,
    path: ["end_date"],
  });
export type UpdateCohortRequest = z.infer<typeof updateCohortRequestSchema>;

/** A cohort as the admin list shows it: with its students and its week count. */
export const adminCohortSchema = cohortSchema.extend({
  student_count: z.number().int(),
  week_count: z.number().int(),
});
export type AdminCohortItem = z.infer<typeof adminCohortSchema>;
/** GET /cohorts/admin (admins): every cohort but the demo cohort, newest first. */
export const adminCohortsResponseSchema = z.object({ data: z.array(adminCohortSchema) });
export type AdminCohortsResponse = z.infer<typeof adminCohortsResponseSchema>;
/** Reply of POST /cohorts and PATCH /cohorts/:id. */
export const cohortMutationResponseSchema = z.object({ data: adminCohortSchema });
export type CohortMutationResponse = z.infer<typeof cohortMutationResponseSchema>;

/** GET /cohorts/active: cohorts that started at most this many days ahead… */
export const ACTIVE_COHORT_LEAD_DAYS = 14;
/** …and ended at most this many days ago (a week's reports arrive after the cohort ends). */
export const ACTIVE_COHORT_GRACE_DAYS = 28;
