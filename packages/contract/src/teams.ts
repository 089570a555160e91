import { z } from "zod";
import { dashboardFilterQuerySchema } from "./dashboard-filter.js";

// GET /teams.

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
export const teamsQuerySchema = dashboardFilterQuerySchema.pick({
  school_id: true,
  schoolIds: true,
  respectVisibility: true,
  cohortId: true,
});
export type TeamsQuery = z.infer<typeof teamsQuerySchema>;
export const teamsResponseSchema = z.object({ data: z.array(teamSchema) });
export type TeamsResponse = z.infer<typeof teamsResponseSchema>;
