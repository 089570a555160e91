import type { DashboardFilter, DashboardFilterQuery } from "@tally/contract";

/**
 * The one reader of the dashboard filter set (the rule is in the contract's dashboard-filter.ts):
 * the spec's `school_id` and the list `schoolIds` become one `schoolIds`, narrowed by both
 * when both are given; empty search text is no search. Every route that takes the set calls it.
 */
export function parseDashboardFilter(query: Partial<DashboardFilterQuery>): DashboardFilter {
  let schoolIds = query.schoolIds;
  if (query.school_id !== undefined) {
    const one = query.school_id;
    schoolIds = schoolIds ? schoolIds.filter((s) => s === one) : [one];
  }
  return {
    schoolIds,
    respectVisibility: query.respectVisibility,
    cohortId: query.cohortId,
    teamId: query.teamId,
    q: query.q || undefined,
  };
}
