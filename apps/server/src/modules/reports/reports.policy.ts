import { canExport, type FeatureSettings, isAdminRole, REPORT_MESSAGES, type Role, togglesAt } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

/**
 * Whether the caller may export (PDF, e-mail, CSV) a report covering `reportSchoolIds`:
 * admins and super admins always; a school user when export is on at their school; a district
 * user when it is on at every school of the report. `features` is undefined when reading the
 * settings failed: the spec then allows export (§8, "Feature check failure").
 */
export function exportRefusal(
  caller: { role: Role; schoolId: number | null },
  features: FeatureSettings | undefined,
  reportSchoolIds: readonly number[],
): string | undefined {
  if (isAdminRole(caller.role) || features === undefined) return undefined;
  if (caller.role === "school_user") {
    return canExport(caller, togglesAt(features, caller.schoolId)) ? undefined : REPORT_MESSAGES.exportOffSchool;
  }
  const everyOn = reportSchoolIds.every((id) => canExport(caller, togglesAt(features, id)));
  return everyOn ? undefined : REPORT_MESSAGES.exportOffDistrict;
}

/** Throws the 403 with its text when exportRefusal refuses. */
export function assertCanExport(...args: Parameters<typeof exportRefusal>): void {
  const refusal = exportRefusal(...args);
  if (refusal) throw forbidden(refusal);
}
