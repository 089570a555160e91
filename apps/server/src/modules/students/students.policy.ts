import { isAdminRole, type Role } from "@tally/contract";
import { z } from "zod";

const toggles = z.object({ enableExport: z.boolean().optional(), enableStudentEditing: z.boolean().optional() });

// Lenient: a malformed or partial setting falls back to the defaults rather than failing.
const featuresSchema = z.object({
  enableExport: z.boolean().catch(true).default(true),
  enableStudentEditing: z.boolean().catch(true).default(true),
  applyToAllSchools: z.boolean().catch(true).default(true),
  schoolSettings: z.record(z.string(), toggles.catch({})).catch({}).default({}),
});
export type FeatureSettings = z.infer<typeof featuresSchema>;

/** The 'features' setting with defaults filled in (absent = every feature on). */
export function parseFeatureSettings(value: unknown): FeatureSettings {
  const parsed = featuresSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : featuresSchema.parse({});
}

/** enableStudentEditing as it applies to one school (global values when applyToAllSchools). */
export function isStudentEditingEnabled(features: FeatureSettings, schoolId: number | null): boolean {
  if (features.applyToAllSchools || schoolId === null) return features.enableStudentEditing;
  return features.schoolSettings[String(schoolId)]?.enableStudentEditing ?? features.enableStudentEditing;
}

/**
 * The e-mail is the import's identity of a student, and a 409 for a taken address would tell
 * anyone who tries whether it belongs to a student of any school: admins only.
 */
export function canChangeStudentEmail(role: Role): boolean {
  return isAdminRole(role);
}

/**
 * Who may edit a student the caller can already see: admins always; school and district
 * users only where editing is enabled, for the student's school and the school it moves to.
 */
export function canEditStudent(
  role: Role,
  features: FeatureSettings,
  fromSchoolId: number | null,
  toSchoolId: number | null,
): boolean {
  if (isAdminRole(role)) return true;
  return isStudentEditingEnabled(features, fromSchoolId) && isStudentEditingEnabled(features, toSchoolId);
}
