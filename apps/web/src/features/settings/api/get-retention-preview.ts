import { type RetentionPreview, retentionPreviewSchema } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** What retention with `years` would remove now: asked before it is saved or switched on. */
export async function getRetentionPreview(years: number, signal?: AbortSignal): Promise<RetentionPreview> {
  return retentionPreviewSchema.parse(await apiRequest<unknown>("/settings/privacy/retention-preview", { query: { years }, signal }));
}

export const retentionPreviewQuery = (years: number) =>
  queryOptions({
    queryKey: queryKeys.settings.retentionPreview(years),
    queryFn: ({ signal }) => getRetentionPreview(years, signal),
  });

/** Off (null) asks nothing. */
export function useRetentionPreview(years: number | null) {
  return useQuery({ ...retentionPreviewQuery(years ?? 0), enabled: years !== null });
}
