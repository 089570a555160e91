import { SimpleGrid } from "@mantine/core";
import type { StudentsSummary } from "@tally/contract";
import { StatCard } from "../../../components/stat-card";

/** The four stat cards; Total Schools is left out for school users. */
export function DashboardStats({ summary, showSchoolCard }: { summary: StudentsSummary; showSchoolCard: boolean }) {
  return (
    <SimpleGrid cols={{ base: 2, md: showSchoolCard ? 4 : 3 }} spacing="sm">
      {showSchoolCard ? <StatCard label="Total Schools" value={summary.schoolCount} /> : null}
      <StatCard label="Total Students" value={summary.studentCount} />
      <StatCard label="Total Cohorts" value={summary.cohortCount} />
      <StatCard label="Total Teams" value={summary.teamCount} />
    </SimpleGrid>
  );
}
