import { type FeatureToggles, isAdminRole, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

/** What the settings rules need of the signed-in user (request.user). */
export interface SettingsReader {
  role: Role;
  schoolId: number | null;
  /** 'all' for admins. */
  accessibleSchoolIds: readonly number[] | "all";
}

/**
 * The school whose feature toggles a caller reads: the one asked for, else a school user's own
 * school (else none: the global values). Only admins may ask about a school outside their scope.
 */
export function featureSchoolFor(reader: SettingsReader, requested: number | undefined): number | null {
  if (requested === undefined) return reader.role === "school_user" ? reader.schoolId : null;
  if (isAdminRole(reader.role)) return requested;
  if (reader.accessibleSchoolIds !== "all" && !reader.accessibleSchoolIds.includes(requested)) throw forbidden();
  return requested;
}

/**
 * Whether a caller may export a report (the export itself comes in a later issue): admins and
 * super admins always; everyone else per the toggles in force at their school, as resolved by
 * togglesAt. The spec's "allowed if the check fails" is the caller's to apply (pass the defaults).
 */
export function canExport(caller: { role: Role }, toggles: FeatureToggles): boolean {
  return isAdminRole(caller.role) || toggles.enableExport;
}
