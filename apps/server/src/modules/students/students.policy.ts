import { type FeatureSettings, isAdminRole, type Role, togglesAt } from "@tally/contract";

/**
 * The e-mail is the import's identity of a student, and a 409 for a taken address would tell
 * anyone who tries whether it belongs to a student of any school: admins only.
 */
export function canChangeStudentEmail(role: Role): boolean {
  return isAdminRole(role);
}

/** The Benefit Assignment ID matches the CRM's rows to the student (flag uploader): admins only, as the e-mail. */
export function canChangeBenefitId(role: Role): boolean {
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
  return togglesAt(features, fromSchoolId).enableStudentEditing && togglesAt(features, toSchoolId).enableStudentEditing;
}
