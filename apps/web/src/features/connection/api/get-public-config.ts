import { type PublicConfig, publicConfigSchema } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

const SUPPORT_EMAIL_KEY = "tally.supportEmail";

/** The support address last heard from the server, so the offline page can still show it. */
export function storedSupportEmail(): string | null {
  try {
    return localStorage.getItem(SUPPORT_EMAIL_KEY);
  } catch {
    return null;
  }
}

/** GET /api/public-config (no sign-in needed); keeps the support address for offline use. */
export async function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  const config = publicConfigSchema.parse(await apiRequest<unknown>("/public-config", { auth: false, signal }));
  try {
    localStorage.setItem(SUPPORT_EMAIL_KEY, config.supportEmail);
  } catch {
    // storage disabled: the page then falls back to the generic line when offline
  }
  return config;
}

export const publicConfigQuery = () =>
  queryOptions({
    queryKey: queryKeys.publicConfig,
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** The support address: the server's answer, else the stored one, else null. */
export function useSupportEmail(): string | null {
  const { data } = useQuery(publicConfigQuery());
  return data?.supportEmail ?? storedSupportEmail();
}
