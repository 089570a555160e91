import type { AdminSchoolItem, AdminSchoolsResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";

/** Under the shared ["schools"] key, so every change of a school refreshes the pickers too. */
export const ADMIN_SCHOOLS_KEY = ["schools", "admin"] as const;

/** GET /schools/admin: every school but the demo school, with student counts (admins). */
export async function getAdminSchools(signal?: AbortSignal): Promise<AdminSchoolItem[]> {
  return listData(await apiRequest<AdminSchoolsResponse>("/schools/admin", { signal }));
}

export function useAdminSchools(enabled = true) {
  return useQuery(queryOptions({ queryKey: ADMIN_SCHOOLS_KEY, queryFn: ({ signal }) => getAdminSchools(signal), enabled }));
}
