import type { FeatureSettings, FeatureSettingsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/**
 * The whole stored setting, as an admin edits it. Unlike the dashboard's read, a failure is
 * an error here: the screen says so rather than offering the defaults to save over it.
 */
export async function getAdminFeatureSettings(signal?: AbortSignal): Promise<FeatureSettings> {
  return (await apiRequest<FeatureSettingsResponse>("/settings/features", { signal })).data;
}

export const adminFeatureSettingsQuery = queryOptions({
  queryKey: queryKeys.settings.features.admin,
  queryFn: ({ signal }) => getAdminFeatureSettings(signal),
});

export function useAdminFeatureSettings() {
  return useQuery(adminFeatureSettingsQuery);
}
