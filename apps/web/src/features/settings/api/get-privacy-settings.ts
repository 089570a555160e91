import { type PrivacySettings, privacySettingsSchema } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Checked against the contract: a reply of another shape is a load error the section shows, not a broken page. */
export async function getPrivacySettings(signal?: AbortSignal): Promise<PrivacySettings> {
  return privacySettingsSchema.parse(await apiRequest<unknown>("/settings/privacy", { signal }));
}

export const privacySettingsQuery = queryOptions({
  queryKey: queryKeys.settings.privacy,
  queryFn: ({ signal }) => getPrivacySettings(signal),
});

export function usePrivacySettings() {
  return useQuery(privacySettingsQuery);
}
