import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { MeetingTypeFilter, SessionUser } from "@tally/contract";
import { keepPreviousData, usePrefetchQuery, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useLocation, useOutletContext } from "react-router";
import { cohortsQuery } from "../../../lib/api/get-cohorts";
import { schoolsQuery } from "../../../lib/api/get-schools";
import { type DashboardFilters, NO_FILTERS } from "../api/dashboard-filters";
import { cohortTrendsQuery } from "../api/get-cohort-trends";
import { studentsQuery } from "../api/get-students";
import { studentsSummaryQuery } from "../api/get-students-summary";
import { teamsQuery } from "../api/get-teams";
import type { ReportFilters } from "../api/report-filters";
import { AttendanceTable } from "./attendance-table";
import { AttendanceTrendSection } from "./attendance-trend-section";
import { DashboardFilterBar } from "./dashboard-filter-bar";
import { DashboardStats } from "./dashboard-stats";
import { ExportMenu } from "./export-menu";
import { StudentDetailModal } from "./student-detail-modal";
import { STUDENTS_PER_PAGE, StudentGrid } from "./student-grid";
import { studentFromLink } from "../../../lib/student-link";

export const SEARCH_DEBOUNCE_MS = 300;

/** The header search text the dashboard layout passes down (empty outside that layout). */
function useHeaderSearch(): string {
  return useOutletContext<{ search: string } | undefined>()?.search ?? "";
}

interface Props {
  user: SessionUser;
  title: ReactNode;
  subtitle: ReactNode;
  showSchoolFilter: boolean;
  showSchoolCard: boolean;
  /** Every request names this school (the demo school's dashboard, opened by someone outside it). */
  fixedSchoolId?: number | undefined;
}

export function DashboardHeading({ title, subtitle }: { title: ReactNode; subtitle: ReactNode }) {
  return (
    <Stack gap={2}>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">{subtitle}</Text>
    </Stack>
  );
}

export function DashboardLoading() {
  return (
    <Center role="status" py="xl" mih={200}>
      <Stack align="center" gap="sm">
        <Loader />
        <Text>Loading dashboard...</Text>
      </Stack>
    </Center>
  );
}

/** Shared student dashboard (spec section 2); the server limits every list to the caller's scope. */
export function StudentDashboard({ user, title, subtitle, showSchoolFilter, showSchoolCard, fixedSchoolId }: Props) {
  const search = useHeaderSearch();
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setFilters] = useState<DashboardFilters>(NO_FILTERS);
  const filters: DashboardFilters = fixedSchoolId === undefined ? chosen : { ...chosen, schoolId: fixedSchoolId };
  const [meetingType, setMeetingType] = useState<MeetingTypeFilter>("both");
  // A link from another page (the flag uploader's ID conflicts) may name a student to open.
  const { search: address } = useLocation();
  const [openStudentId, setOpenStudentId] = useState<number | null>(() => studentFromLink(address));
  // The page belongs to one filter + search combination; any change starts again at page 1.
  const pageKey = JSON.stringify([filters, q]);
  const [paging, setPaging] = useState({ key: pageKey, page: 1 });
  const page = paging.key === pageKey ? paging.page : 1;

  // A school user's own school names the export; the school page has it cached already.
  const ownSchoolId = user.role === "school_user" && fixedSchoolId === undefined ? user.school_id : null;
  const schools = useQuery({ ...schoolsQuery, enabled: showSchoolFilter || ownSchoolId !== null });
  const cohorts = useQuery({ ...cohortsQuery(filters.schoolId), placeholderData: keepPreviousData });
  // Teams are listed once a school narrows them: across all schools they run to thousands.
  const teamsEnabled = !showSchoolFilter || filters.schoolId !== null;
  const teams = useQuery({
    ...teamsQuery({ schoolId: filters.schoolId, cohortId: filters.cohortId }, teamsEnabled),
    placeholderData: keepPreviousData,
  });
  const summary = useQuery({ ...studentsSummaryQuery(filters, q), placeholderData: keepPreviousData });
  // The chart, the table and the grid ask for these once the page shows; asking now, beside
  // the lists above, saves a round trip of waiting on a fresh sign-in.
  usePrefetchQuery(cohortTrendsQuery(filters, meetingType));
  usePrefetchQuery(cohortTrendsQuery(filters, "both"));
  usePrefetchQuery(studentsQuery({ filters, q, page, limit: STUDENTS_PER_PAGE }));

  /** What the Export menu reports on: the filters as chosen, with the names and totals shown. */
  const exportReport = (): ReportFilters => {
    const schoolId = filters.schoolId ?? ownSchoolId;
    return {
      ...filters,
      schoolId,
      schoolName: schools.data?.find((s) => s.id === schoolId)?.name,
      cohortName: cohorts.data?.find((c) => c.id === filters.cohortId)?.name,
      teamName: teams.data?.find((t) => t.id === filters.teamId)?.name,
      totals: summary.data,
    };
  };

  const core = [cohorts, summary, ...(showSchoolFilter ? [schools] : [])];
  // The team list loads inside its dropdown; only its failure stops the page.
  const failed = [...core, ...(teamsEnabled ? [teams] : [])];
  const heading = <DashboardHeading title={title} subtitle={subtitle} />;

  if (failed.some((query) => query.isError)) {
    return (
      <Stack gap="md">
        {heading}
        <Alert color="red" variant="light" title="Error" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">Failed to load dashboard data. Please try again.</Text>
            <Button
              color="red"
              onClick={() => {
                for (const query of failed) if (query.isError) void query.refetch();
              }}
            >
              Retry
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  if (core.some((query) => query.isPending) || !summary.data) {
    return (
      <Stack gap="md">
        {heading}
        <DashboardLoading />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        {heading}
        <ExportMenu user={user} report={exportReport()} />
      </Group>
      <DashboardFilterBar
        filters={filters}
        onChange={setFilters}
        schools={schools.data ?? []}
        cohorts={cohorts.data ?? []}
        teams={teamsEnabled ? (teams.data ?? []) : []}
        teamsNeedSchool={!teamsEnabled}
        showSchoolFilter={showSchoolFilter}
        cohortsLoading={cohorts.isPlaceholderData}
        teamsLoading={teamsEnabled && (teams.isPending || teams.isPlaceholderData)}
      />
      <DashboardStats summary={summary.data} showSchoolCard={showSchoolCard} />
      <AttendanceTrendSection filters={filters} meetingType={meetingType} onMeetingTypeChange={setMeetingType} />
      <AttendanceTable filters={filters} />
      <StudentGrid
        filters={filters}
        q={q}
        page={page}
        onPageChange={(next) => setPaging({ key: pageKey, page: next })}
        onView={setOpenStudentId}
      />
      {openStudentId !== null ? (
        <StudentDetailModal studentId={openStudentId} user={user} onClose={() => setOpenStudentId(null)} />
      ) : null}
    </Stack>
  );
}
