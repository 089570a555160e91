import type { ImportBatch, ImportsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** GET /imports: the import batches, newest first (admins). */
export async function getImports(limit: number, cohortId?: number, signal?: AbortSignal): Promise<ImportBatch[]> {
  return listData(await apiRequest<ImportsResponse>("/imports", { signal, query: { limit, cohortId } }));
}

export function importsQuery(limit = 20, cohortId?: number) {
  return queryOptions({
    queryKey: queryKeys.imports.list(limit, cohortId ?? null),
    queryFn: ({ signal }) => getImports(limit, cohortId, signal),
  });
}

export function useImports(limit = 20, cohortId?: number) {
  return useQuery(importsQuery(limit, cohortId));
}
