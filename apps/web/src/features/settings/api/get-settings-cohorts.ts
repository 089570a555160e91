import type { CohortItem } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** The cohorts the settings sections work on (weekly data import, visibility). */
export async function getSettingsCohorts(signal?: AbortSignal): Promise<CohortItem[]> {
  const reply = await apiRequest<{ data?: CohortItem[] }>("/cohorts", { signal });
  return Array.isArray(reply?.data) ? reply.data : [];
}

export const settingsCohortsQuery = queryOptions({
  queryKey: ["settings", "cohorts"],
  queryFn: ({ signal }) => getSettingsCohorts(signal),
});

export function useSettingsCohorts(enabled = true) {
  return useQuery({ ...settingsCohortsQuery, enabled });
}
