import type { ProfileResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getProfile(signal?: AbortSignal): Promise<ProfileResponse> {
  return apiRequest<ProfileResponse>("/auth/profile", { signal });
}

export const profileQuery = queryOptions({
  queryKey: queryKeys.auth.profile,
  queryFn: ({ signal }) => getProfile(signal),
});

export function useProfile() {
  return useQuery(profileQuery);
}
