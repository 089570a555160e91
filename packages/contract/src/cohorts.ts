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
