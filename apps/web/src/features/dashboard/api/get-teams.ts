import type { TeamItem, TeamsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { type DashboardFilters, filterQuery } from "./dashboard-filters";
import { queryKeys } from "../../../lib/query-keys";

export type TeamsFilter = Pick<DashboardFilters, "schoolId" | "cohortId">;

export async function getTeams(filter: TeamsFilter, signal?: AbortSignal): Promise<TeamItem[]> {
  return listData(await apiRequest<TeamsResponse>("/teams", { signal, query: filterQuery(filter) }));
}

/** Teams the caller may see, narrowed by school and cohort when chosen. */
export function teamsQuery(filter: TeamsFilter, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.teams.list(filter),
    queryFn: ({ signal }) => getTeams(filter, signal),
    enabled,
  });
}

export function useTeams(filter: TeamsFilter, enabled = true) {
  return useQuery(teamsQuery(filter, enabled));
}
