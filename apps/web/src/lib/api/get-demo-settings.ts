import type { DemoSettings, DemoSettingsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api-client";
import { queryKeys } from "../query-keys";

export type { DemoSettings } from "@tally/contract";

export async function getDemoSettings(signal?: AbortSignal): Promise<DemoSettings> {
  return (await apiRequest<DemoSettingsResponse>("/settings/demo", { signal })).data;
}

export const demoSettingsQuery = queryOptions({
  queryKey: queryKeys.settings.demo,
  queryFn: ({ signal }) => getDemoSettings(signal),
  // The API client already retries what is worth retrying; a guard waiting on more retries
  // would only hold the page.
  retry: false,
});

export function useDemoSettings(enabled = true) {
  return useQuery({ ...demoSettingsQuery, enabled });
}

/** The demo school's dashboard path. */
export function demoDashboardPath(demo: Pick<DemoSettings, "schoolId">): string {
  return `/school/${demo.schoolId}/dashboard`;
}
