import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { MeetingTypeFilter, SessionUser } from "@tally/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useDeferredValue, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { cohortsQuery } from "../../../lib/api/get-cohorts";
import { schoolsQuery } from "../../../lib/api/get-schools";
import type { DashboardFilters } from "../api/dashboard-filters";
import { cohortTrendsQuery } from "../api/get-cohort-trends";
import { studentsQuery } from "../api/get-students";
import { studentsCountQuery, studentsSummaryQuery } from "../api/get-students-summary";
import { teamsQuery } from "../api/get-teams";
import type { ReportFilters } from "../api/report-filters";
import { AttendanceTable } from "./attendance-table";
import { AttendanceTrendSection } from "./attendance-trend-section";
import { DashboardFilterBar } from "./dashboard-filter-bar";
import { DashboardStats } from "./dashboard-stats";
import { ALL_COHORTS, readUrlFilters, runningCohort, useRememberedDashboardView, writeUrlFilters } from "./dashboard-url";
import { ExportMenu } from "./export-menu";
import { SearchElsewhere } from "./search-elsewhere";
import { StudentDetailModal } from "./student-detail-modal";
import { STUDENTS_PER_PAGE, StudentGrid } from "./student-grid";
import { latestWeekChange, weekLabel } from "./trend-rows";
import { alertsLink, useAlertSummary } from "../../../lib/api/get-alert-summary";
import { studentFromLink, studentTabFromLink } from "../../../lib/student-link";

export const SEARCH_DEBOUNCE_MS = 300;

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

/** Where a search found nobody, in words: "Fall 2025", "the current cohort, Fall 2025", "Hawks, Fall 2025". */
function searchPlace(cohortName: string, runningByDefault: boolean, teamName: string | undefined): string {
  if (teamName) return `${teamName}, ${cohortName}`;
  return runningByDefault ? `the current cohort, ${cohortName}` : cohortName;
}

/** Shared student dashboard (spec section 2); the server limits every list to the caller's scope. */
export function StudentDashboard({ user, title, subtitle, showSchoolFilter, showSchoolCard, fixedSchoolId }: Props) {
  useRememberedDashboardView();
  const [params, setParams] = useSearchParams();
  const url = readUrlFilters(params);
  const [q] = useDebouncedValue(url.q.trim(), SEARCH_DEBOUNCE_MS);
  const schoolId = fixedSchoolId ?? (showSchoolFilter ? url.schoolId : null);
  const [meetingType, setMeetingType] = useState<MeetingTypeFilter>("both");
  // A link from another page (the flag uploader's ID conflicts) may name a student to open.
  const [openStudentId, setOpenStudentId] = useState<number | null>(() => studentFromLink(params.toString()));
  const [openTab] = useState(() => studentTabFromLink(params.toString()));

  // A school user's own school names the export; the school page has it cached already.
  const ownSchoolId = user.role === "school_user" && fixedSchoolId === undefined ? user.school_id : null;
  const schools = useQuery({ ...schoolsQuery, enabled: showSchoolFilter || ownSchoolId !== null });
  const cohorts = useQuery({ ...cohortsQuery(schoolId), placeholderData: keepPreviousData });
  // No cohort in the URL is the running cohort (all cohorts between two): the page waits for
  // the cohort list to know it, so no figure is first drawn for the wrong cohorts.
  const running = cohorts.data && !cohorts.isPlaceholderData ? runningCohort(cohorts.data) : undefined;
  const cohortId = url.cohort === ALL_COHORTS ? null : url.cohort !== undefined ? url.cohort : running === undefined ? undefined : (running?.id ?? null);
  const ready = cohortId !== undefined;
  const filters: DashboardFilters = { schoolId, cohortId: cohortId ?? null, teamId: url.teamId };
  const cohort = cohortId ? (cohorts.data?.find((c) => c.id === cohortId) ?? null) : null;
  // The page belongs to one filter + search combination; any change starts again at page 1.
  const pageKey = JSON.stringify([filters, q]);
  const [paging, setPaging] = useState({ key: pageKey, page: 1 });
  const page = paging.key === pageKey ? paging.page : 1;

  const setFilters = (next: DashboardFilters) => {
    // The current cohort stays implicit while it is the one shown (and when another school is
    // chosen, whose own current cohort then shows), so the link keeps following it.
    const schoolChanged = next.schoolId !== filters.schoolId && next.cohortId === null;
    const cohortIsDefault = url.cohort === undefined && (next.cohortId === filters.cohortId || schoolChanged);
    setParams(writeUrlFilters(params, next, cohortIsDefault));
  };
  const setSearch = (text: string) => {
    const next = new URLSearchParams(params);
    next.set("q", text);
    setParams(next);
  };

  // Teams are listed once a school narrows them: across all schools they run to thousands.
  const teamsEnabled = !showSchoolFilter || filters.schoolId !== null;
  const teams = useQuery({
    ...teamsQuery({ schoolId: filters.schoolId, cohortId: filters.cohortId }, teamsEnabled && ready),
    placeholderData: keepPreviousData,
  });
  const summary = useQuery({ ...studentsSummaryQuery(filters, q), placeholderData: keepPreviousData, enabled: ready });
  // Issue 30: the open alerts under the filters; a failure only leaves the card and marks out.
  // The search narrows them as it narrows every other figure (issue 41).
  const alertScope = { schoolId: filters.schoolId, cohortId: filters.cohortId, q };
  const alerts = useAlertSummary(alertScope, ready);
  const flagged = useMemo(() => new Set(alerts.data?.studentIds ?? []), [alerts.data]);
  // Weeks of several cohorts are not comparable: the trend is drawn for one cohort in view
  // (the cohort list tells before the totals arrive; the totals tell for a search).
  const cohortsInView = summary.data?.cohortCount ?? (cohorts.isPlaceholderData ? undefined : cohorts.data?.length);
  const severalCohorts = filters.cohortId === null && (cohortsInView === undefined || cohortsInView > 1);
  const trend = useQuery({ ...cohortTrendsQuery(filters, "both", q), enabled: ready && !severalCohorts });
  // A search that finds nobody in the chosen cohort asks, then only, whether it finds students in
  // others: the header's search otherwise looks through the running cohort alone, without a word.
  const foundNone = q !== "" && filters.cohortId !== null && !summary.isPlaceholderData && summary.data?.studentCount === 0;
  const allCohorts: DashboardFilters = { schoolId: filters.schoolId, cohortId: null, teamId: null };
  const elsewhere = useQuery({ ...studentsCountQuery(allCohorts, q), enabled: ready && foundNone });
  // The grid asks for its page once the page shows; asking now, beside the totals, saves a
  // round trip of waiting on a fresh sign-in. Nothing here reads it, so nothing re-renders.
  useQuery({ ...studentsQuery({ filters, q, page, limit: STUDENTS_PER_PAGE }), enabled: ready, notifyOnChangeProps: [] });

  /** What the Export menu reports on: the filters as chosen, with the names and totals shown. */
  const exportReport = (): ReportFilters => {
    const reportSchool = filters.schoolId ?? ownSchoolId;
    return {
      ...filters,
      q,
      schoolId: reportSchool,
      schoolName: schools.data?.find((s) => s.id === reportSchool)?.name,
      cohortName: cohort?.name,
      teamName: teams.data?.find((t) => t.id === filters.teamId)?.name,
      totals: summary.data,
    };
  };

  const core = [cohorts, summary, ...(showSchoolFilter ? [schools] : [])];
  // The team list loads inside its dropdown; only its failure stops the page.
  const failed = [...core, ...(teamsEnabled ? [teams] : [])];
  const heading = <DashboardHeading title={title} subtitle={subtitle} />;
  // The page's first draw with its data (filters, figures, chart, table, students) is rendered
  // at transition priority, in slices that let the browser in between, rather than as one long
  // task the moment the totals arrive (issue 29: total blocking time); later updates are not held.
  const loaded = !core.some((query) => query.isPending) && summary.data !== undefined;
  const shown = useDeferredValue(loaded);

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
  if (!loaded || !shown || !summary.data) {
    return (
      <Stack gap="md">
        {heading}
        <DashboardLoading />
      </Stack>
    );
  }

  const latest = trend.data && trend.data.length > 0 ? latestWeekChange(trend.data) : undefined;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        {heading}
        <ExportMenu user={user} report={exportReport()} />
      </Group>
      <DashboardFilterBar
        filters={filters}
        onChange={setFilters}
        onClear={() => setParams(writeUrlFilters(params, { schoolId: null, cohortId: null, teamId: null }, false))}
        schools={schools.data ?? []}
        cohorts={cohorts.data ?? []}
        teams={teamsEnabled ? (teams.data ?? []) : []}
        teamsNeedSchool={!teamsEnabled}
        showSchoolFilter={showSchoolFilter}
        runningCohortId={running?.id ?? null}
        cohortsLoading={cohorts.isPlaceholderData}
        teamsLoading={teamsEnabled && (teams.isPending || teams.isPlaceholderData)}
      />
      {q ? (
        <Text size="sm" c="dimmed" data-testid="search-scope">
          Every figure below counts only the students matching “{q}”.
        </Text>
      ) : null}
      {foundNone && cohort && elsewhere.data && elsewhere.data.studentCount > 0 ? (
        <SearchElsewhere
          q={q}
          place={searchPlace(cohort.name, url.cohort === undefined, teams.data?.find((t) => t.id === filters.teamId)?.name)}
          elsewhere={elsewhere.data.studentCount}
          withTeam={filters.teamId !== null}
          onSearchAll={() => setParams(writeUrlFilters(params, allCohorts, false))}
        />
      ) : null}
      <DashboardStats
        summary={summary.data}
        showSchoolCard={showSchoolCard}
        latest={latest}
        latestLabel={latest ? weekLabel(latest.week, cohort) : undefined}
        attention={alerts.data ? { total: alerts.data.total, to: alertsLink(alertScope) } : undefined}
      />
      <AttendanceTrendSection
        filters={filters}
        q={q}
        cohort={cohort}
        severalCohorts={severalCohorts}
        meetingType={meetingType}
        onMeetingTypeChange={setMeetingType}
      />
      <AttendanceTable filters={filters} q={q} cohort={cohort} severalCohorts={severalCohorts} />
      <StudentGrid
        filters={filters}
        q={q}
        onSearch={setSearch}
        page={page}
        onPageChange={(next) => setPaging({ key: pageKey, page: next })}
        onView={setOpenStudentId}
        needsAttention={flagged}
      />
      {openStudentId !== null ? (
        <StudentDetailModal
          studentId={openStudentId}
          user={user}
          initialTab={openTab}
          onClose={() => setOpenStudentId(null)}
        />
      ) : null}
    </Stack>
  );
}
