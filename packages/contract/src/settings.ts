import { z } from "zod";
import { dbIdSchema } from "./common.js";
import { DEMO_COHORT_ID, DEMO_SCHOOL_ID } from "./limits.js";
import { isAdminRole, type Role } from "./roles.js";

/** The two toggles a school can have (spec: feature settings). */
export const featureTogglesSchema = z.object({
  enableExport: z.boolean(),
  enableStudentEditing: z.boolean(),
});
export type FeatureToggles = z.infer<typeof featureTogglesSchema>;

/** The stored 'features' setting; schoolSettings is keyed by school id. */
export const featureSettingsSchema = featureTogglesSchema.extend({
  applyToAllSchools: z.boolean(),
  schoolSettings: z.record(z.string(), featureTogglesSchema.partial()),
});
export type FeatureSettings = z.infer<typeof featureSettingsSchema>;

/** Spec section 6: export on, editing on, apply to all schools on. */
export const FEATURE_DEFAULTS: FeatureSettings = {
  enableExport: true,
  enableStudentEditing: true,
  applyToAllSchools: true,
  schoolSettings: {},
};

/**
 * A school's own toggles: its row in schoolSettings, each toggle it leaves out taken from the
 * global values. What the school gets once the global values no longer apply to all.
 */
export function schoolToggles(features: FeatureSettings, schoolId: number): FeatureToggles {
  const own = features.schoolSettings[String(schoolId)] ?? {};
  return {
    enableExport: own.enableExport ?? features.enableExport,
    enableStudentEditing: own.enableStudentEditing ?? features.enableStudentEditing,
  };
}

/**
 * The toggles in force at one school: the global values when applyToAllSchools is on (or no
 * school is named), else the school's own (schoolToggles).
 */
export function togglesAt(features: FeatureSettings, schoolId: number | null): FeatureToggles {
  if (features.applyToAllSchools || schoolId === null) {
    return { enableExport: features.enableExport, enableStudentEditing: features.enableStudentEditing };
  }
  return schoolToggles(features, schoolId);
}

/**
 * Whether a caller may export a report: admins and super admins always; everyone else per the
 * toggles in force at their school (togglesAt). The spec's "allowed if the check fails" is the
 * caller's to apply (pass the defaults).
 */
export function canExport(caller: { role: Role }, toggles: FeatureToggles): boolean {
  return isAdminRole(caller.role) || toggles.enableExport;
}

/** GET /settings/features: school_id names the school to resolve the toggles for (spec: "optional school id on fetch"). */
export const featureSettingsQuerySchema = z.object({ school_id: dbIdSchema.optional() });
export type FeatureSettingsQuery = z.infer<typeof featureSettingsQuerySchema>;

export const featureSettingsResponseSchema = z.object({
  /** The settings with defaults filled in; for school and district users only their own schools' rows. */
  data: featureSettingsSchema,
  /** The toggles in force at school_id (the global ones when school_id is null or applyToAllSchools is on). */
  effective: featureTogglesSchema.extend({ school_id: z.number().int().nullable() }),
});
export type FeatureSettingsResponse = z.infer<typeof featureSettingsResponseSchema>;

/**
 * POST /settings/features: the whole setting, replacing the stored one. Strict, so a misspelt
 * field is a 400 naming it rather than silently dropped; schoolSettings keys are school ids and
 * every row carries both toggles (the screen always sends both).
 */
export const saveFeatureSettingsRequestSchema = z.strictObject({
  enableExport: z.boolean(),
  enableStudentEditing: z.boolean(),
  applyToAllSchools: z.boolean(),
  schoolSettings: z.record(
    z.string().regex(/^[1-9][0-9]{0,9}$/, "School ids are positive whole numbers"),
    z.strictObject({ enableExport: z.boolean(), enableStudentEditing: z.boolean() }),
  ),
});
export type SaveFeatureSettingsRequest = z.infer<typeof saveFeatureSettingsRequestSchema>;

/** The settings as saved (defaults filled in). */
export const saveFeatureSettingsResponseSchema = z.object({ data: featureSettingsSchema });
export type SaveFeatureSettingsResponse = z.infer<typeof saveFeatureSettingsResponseSchema>;

/** The demo school and cohort, hidden from admin dashboards (stored in the 'demo' setting). */
export const demoIdsSchema = z.object({
  schoolId: z.number().int(),
  cohortId: z.number().int(),
});
export type DemoIds = z.infer<typeof demoIdsSchema>;

export const DEMO_DEFAULTS: DemoIds = { schoolId: DEMO_SCHOOL_ID, cohortId: DEMO_COHORT_ID };
