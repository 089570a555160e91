import type { DemoSettings, DemoSettingsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api-client";

export type { DemoSettings } from "@tally/contract";

/** Every query about the demo setting starts with this key; a save invalidates it. */
export const DEMO_SETTINGS_KEY = ["settings", "demo"] as const;

export async function getDemoSettings(signal?: AbortSignal): Promise<DemoSettings> {
  return (await apiRequest<DemoSettingsResponse>("/settings/demo", { signal })).data;
}

export const demoSettingsQuery = queryOptions({
  queryKey: DEMO_SETTINGS_KEY,
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
