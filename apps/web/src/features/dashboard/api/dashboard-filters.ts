/** The dashboard's filter dropdowns; null means "all". */
export interface DashboardFilters {
  schoolId: number | null;
  cohortId: number | null;
  teamId: number | null;
}

export const NO_FILTERS: DashboardFilters = { schoolId: null, cohortId: null, teamId: null };

/** Query parameters of the student, summary and trend calls for these filters and search text. */
export function filterQuery(filters: DashboardFilters, q = "") {
  return {
    school_id: filters.schoolId ?? undefined,
    cohortId: filters.cohortId ?? undefined,
    teamId: filters.teamId ?? undefined,
    q: q.trim() || undefined,
  };
}
