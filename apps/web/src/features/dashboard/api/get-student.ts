import type { StudentDetail } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getStudent(id: number, signal?: AbortSignal) {
  return apiRequest<StudentDetail>(`/students/${id}`, { signal });
}

export function studentQuery(id: number) {
  return queryOptions({
    queryKey: queryKeys.students.detail(id),
    queryFn: ({ signal }) => getStudent(id, signal),
  });
}

export function useStudent(id: number) {
  return useQuery(studentQuery(id));
}
