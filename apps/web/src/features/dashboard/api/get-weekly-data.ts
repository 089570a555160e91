import type { WeeklyDataItem, WeeklyDataQuery, WeeklyDataResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { listData } from "../../../lib/api/list-data";
import { queryKeys } from "../../../lib/query-keys";

export async function getWeeklyData(studentId: number, cohortId: number | null, signal?: AbortSignal): Promise<WeeklyDataItem[]> {
  const query: WeeklyDataQuery = { cohortId: cohortId ?? undefined };
  return listData(await apiRequest<WeeklyDataResponse>(`/weekly-data/${studentId}`, { signal, query }));
}

/** Flags, reflection and advisor notes per week (of one cohort when given). */
export function weeklyDataQuery(studentId: number, cohortId: number | null, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.weeklyData.student(studentId, cohortId),
    queryFn: ({ signal }) => getWeeklyData(studentId, cohortId, signal),
    enabled,
  });
}

export function useWeeklyData(studentId: number, cohortId: number | null, enabled = true) {
  return useQuery(weeklyDataQuery(studentId, cohortId, enabled));
}
