import { canExport, type DashboardFilter, type FeatureSettings, isAdminRole, REPORT_MESSAGES, type Role, togglesAt } from "@tally/contract";
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

/** The schools an export of `chosen` covers, for the export setting ([] = every school: admins). */
export function coveredSchools(caller: { accessibleSchoolIds: number[] | "all" }, chosen: readonly number[] | undefined): number[] {
  if (chosen !== undefined) return [...chosen];
  return caller.accessibleSchoolIds === "all" ? [] : [...caller.accessibleSchoolIds];
}

/**
 * A full export: its filters narrow nothing but the cohort — every school of the caller's scope
 * (no school chosen, or the one school a single-school user has), no team, no search. Three in
 * 24 hours raise the bulk-export alarm.
 */
export function isFullExport(caller: { accessibleSchoolIds: number[] | "all" }, filter: DashboardFilter): boolean {
  if (filter.teamId !== undefined || filter.q) return false;
  const chosen = filter.schoolIds;
  if (chosen === undefined) return true;
  const own = caller.accessibleSchoolIds;
  return own !== "all" && own.length === 1 && chosen.length === 1 && own[0] === chosen[0];
}
