import { type DashboardFilter, type DashboardFilterParams, dashboardFilterParams } from "@tally/contract";

/** The dashboard's filter dropdowns; null means "all". */
export interface DashboardFilters {
  schoolId: number | null;
  cohortId: number | null;
  teamId: number | null;
}

export const NO_FILTERS: DashboardFilters = { schoolId: null, cohortId: null, teamId: null };

/** The dropdowns (any of them) and the search text as the contract's filter set. */
export function dashboardFilter(filters: Partial<DashboardFilters>, q = ""): DashboardFilter {
  const schoolId = filters.schoolId ?? null;
  return {
    schoolIds: schoolId === null ? undefined : [schoolId],
    cohortId: filters.cohortId ?? undefined,
    teamId: filters.teamId ?? undefined,
    q,
  };
}

/** Query parameters of the student, summary, team and trend calls for these filters and search text. */
export function filterQuery(filters: Partial<DashboardFilters>, q = ""): DashboardFilterParams {
  return dashboardFilterParams(dashboardFilter(filters, q));
}
