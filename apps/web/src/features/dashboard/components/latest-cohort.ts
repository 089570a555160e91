import type { StudentDetail } from "@tally/contract";

export type CohortRef = StudentDetail["cohorts"][number];

/** The student's newest cohort by start_date, or null. */
export function latestCohort(student: StudentDetail): CohortRef | null {
  const sorted = [...student.cohorts].sort((a, b) => b.start_date.localeCompare(a.start_date));
  return sorted[0] ?? student.currentCohort ?? null;
}
