import type { ImportBatch, ImportsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";

export const IMPORTS_KEY = ["imports"] as const;

/** GET /imports: the import batches, newest first (admins). */
export async function getImports(limit: number, cohortId?: number, signal?: AbortSignal): Promise<ImportBatch[]> {
  return listData(await apiRequest<ImportsResponse>("/imports", { signal, query: { limit, cohortId } }));
}

export function importsQuery(limit = 20, cohortId?: number) {
  return queryOptions({
    queryKey: [...IMPORTS_KEY, { limit, cohortId: cohortId ?? null }],
    queryFn: ({ signal }) => getImports(limit, cohortId, signal),
  });
}

export function useImports(limit = 20, cohortId?: number) {
  return useQuery(importsQuery(limit, cohortId));
}
