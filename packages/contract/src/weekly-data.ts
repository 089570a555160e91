import { z } from "zod";
import { dbIdSchema } from "./common.js";

// GET /weekly-data/:studentId: flags, reflection and advisor notes per week.

export const weeklyDataParamsSchema = z.object({ studentId: dbIdSchema });
export type WeeklyDataParams = z.infer<typeof weeklyDataParamsSchema>;

export const weeklyDataQuerySchema = z.object({ cohortId: dbIdSchema.optional() });
export type WeeklyDataQuery = z.infer<typeof weeklyDataQuerySchema>;
/** A flag of a student's week: a stable code and the text shown (report-formats.md, flag rules). */
export const weeklyFlagSchema = z.object({ code: z.string(), text: z.string() });
export type WeeklyFlagItem = z.infer<typeof weeklyFlagSchema>;

export const weeklyDataItemSchema = z.object({
  id: z.number().int(),
  cohort_id: z.number().int(),
  week_number: z.number().int(),
  week_start: z.string().nullable(),
  flags: z.array(weeklyFlagSchema),
  reflection: z.string().nullable(),
  advisor_notes: z.string().nullable(),
  updated_at: z.string(),
  total_hours_reported: z.number().nullable(),
});
export type WeeklyDataItem = z.infer<typeof weeklyDataItemSchema>;
export const weeklyDataResponseSchema = z.object({ data: z.array(weeklyDataItemSchema) });
export type WeeklyDataResponse = z.infer<typeof weeklyDataResponseSchema>;
