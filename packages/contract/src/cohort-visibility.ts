import { z } from "zod";
import { dbIdSchema, MAX_DB_ID } from "./common.js";

/** One cohort visibility setting: school_id null = every school; a school's own row overrides it. */
export const cohortVisibilitySettingSchema = z.object({
  cohort_id: z.number().int().positive().max(MAX_DB_ID),
  school_id: z.number().int().positive().max(MAX_DB_ID).nullable(),
  is_visible: z.boolean(),
});
export type CohortVisibilitySetting = z.infer<typeof cohortVisibilitySettingSchema>;

/** GET /settings/cohort-visibility: school_id narrows the reply to the rows that apply at that school. */
export const cohortVisibilityQuerySchema = z.object({ school_id: dbIdSchema.optional() });
export type CohortVisibilityQuery = z.infer<typeof cohortVisibilityQuerySchema>;

/** Stored rows only: a cohort without a row that applies is visible. */
export const cohortVisibilityResponseSchema = z.object({ data: z.array(cohortVisibilitySettingSchema) });
export type CohortVisibilityResponse = z.infer<typeof cohortVisibilityResponseSchema>;

/** Largest batch one save takes (a row per cohort per school is far below it in practice). */
export const COHORT_VISIBILITY_BATCH_MAX = 5000;

/**
 * POST /settings/cohort-visibility: the rows named are written (insert or replace), rows not
 * named stay as they are. All or nothing.
 */
export const saveCohortVisibilityRequestSchema = z.object({
  settings: z.array(cohortVisibilitySettingSchema).max(COHORT_VISIBILITY_BATCH_MAX),
});
export type SaveCohortVisibilityRequest = z.infer<typeof saveCohortVisibilityRequestSchema>;

export const saveCohortVisibilityResponseSchema = z.object({
  message: z.string(),
  /** Every stored row after the save. */
  data: z.array(cohortVisibilitySettingSchema),
});
export type SaveCohortVisibilityResponse = z.infer<typeof saveCohortVisibilityResponseSchema>;

/** The spec's texts for the School Data Visibility screen (section 8). */
export const VISIBILITY_MESSAGES = {
  saved: "Visibility settings saved successfully.",
  loadFailed: "Failed to load visibility settings. Please try again.",
  saveFailed: "Failed to save settings. Please try again.",
} as const;

/**
 * The spec's fallback when the settings cannot be loaded: a cohort counts as visible when it
 * starts in the current or the previous calendar year.
 */
export function fallbackCohortVisible(startDate: string | null | undefined, today: Date): boolean {
  if (!startDate) return false;
  const year = Number(startDate.slice(0, 4));
  const current = today.getFullYear();
  return year === current || year === current - 1;
}
