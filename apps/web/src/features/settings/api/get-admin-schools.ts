import type { AdminSchoolItem, AdminSchoolsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

/** Under the shared ["schools"] key, so every change of a school refreshes the pickers too. */
/** GET /schools/admin: every school but the demo school, with student counts (admins). */
export async function getAdminSchools(signal?: AbortSignal): Promise<AdminSchoolItem[]> {
  return listData(await apiRequest<AdminSchoolsResponse>("/schools/admin", { signal }));
}

export function useAdminSchools(enabled = true) {
  return useQuery(queryOptions({ queryKey: queryKeys.schools.admin, queryFn: ({ signal }) => getAdminSchools(signal), enabled }));
}
