import type { PrivacySettings } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getPrivacySettings(signal?: AbortSignal): Promise<PrivacySettings> {
  return apiRequest<PrivacySettings>("/settings/privacy", { signal });
}

export const privacySettingsQuery = queryOptions({
  queryKey: queryKeys.settings.privacy,
  queryFn: ({ signal }) => getPrivacySettings(signal),
});

export function usePrivacySettings() {
  return useQuery(privacySettingsQuery);
}
