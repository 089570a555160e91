import type { TeamItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "./list-data";

export interface TeamsFilter {
  schoolId: number | null;
  cohortId: number | null;
}

export async function getTeams(filter: TeamsFilter, signal?: AbortSignal): Promise<TeamItem[]> {
  const reply = await apiRequest<unknown>("/teams", {
    signal,
    query: { school_id: filter.schoolId ?? undefined, cohortId: filter.cohortId ?? undefined },
  });
  return listData<TeamItem>(reply);
}

/** Teams the caller may see, narrowed by school and cohort when chosen. */
export function teamsQuery(filter: TeamsFilter, enabled = true) {
  return queryOptions({
    queryKey: ["teams", filter],
    queryFn: ({ signal }) => getTeams(filter, signal),
    enabled,
  });
}

export function useTeams(filter: TeamsFilter, enabled = true) {
  return useQuery(teamsQuery(filter, enabled));
}
