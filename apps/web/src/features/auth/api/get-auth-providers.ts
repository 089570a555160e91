import type { AuthProvidersResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getAuthProviders(signal?: AbortSignal): Promise<AuthProvidersResponse> {
  return apiRequest<AuthProvidersResponse>("/auth/providers", { auth: false, signal });
}

/** The configured providers change only with a restart: read once per page load. */
export function authProvidersQuery() {
  return queryOptions({ queryKey: queryKeys.auth.providers, queryFn: ({ signal }) => getAuthProviders(signal), staleTime: Infinity });
}

export function useAuthProviders() {
  return useQuery(authProvidersQuery());
}
