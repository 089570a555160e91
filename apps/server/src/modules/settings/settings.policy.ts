import { isAdminRole, type Role } from "@tally/contract";
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
