import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** GET /api/profile/digest: whether the signed-in person gets the weekly digest e-mails. */
export function getDigestSetting(signal?: AbortSignal): Promise<{ enabled: boolean }> {
  return apiRequest<{ enabled: boolean }>("/profile/digest", { signal });
}

export const digestSettingQuery = queryOptions({ queryKey: queryKeys.digestSetting, queryFn: ({ signal }) => getDigestSetting(signal) });

export function useDigestSetting() {
  return useQuery(digestSettingQuery);
}
