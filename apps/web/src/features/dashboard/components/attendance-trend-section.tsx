import { Alert, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import type { MeetingTypeFilter } from "@tally/contract";
import { Suspense, useId } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { lazyComponent } from "../../../lib/lazy-component";
import type { TrendSeries } from "../../../components/trend-chart";
import { useCohortTrends } from "../api/get-cohort-trends";
import type { DashboardFilters } from "../api/dashboard-filters";
import { toTrendRows, trendSummary } from "./trend-rows";

// The charting library is the biggest part of the page: its own chunk, fetched as soon as this
// module loads so it arrives alongside the numbers instead of after them.
const TrendChart = lazyComponent(() => import("../../../components/trend-chart").then((m) => m.TrendChart));
TrendChart.preload();

const MENTOR: TrendSeries = { name: "mentor", label: "Mentor", color: "blue.9" };
const ADVISOR: TrendSeries = { name: "advisor", label: "Advisor", color: "orange.9", dashed: true };

export const NO_TREND_DATA = "No attendance data available for the selected filters.";

interface Props {
  filters: DashboardFilters;
  meetingType: MeetingTypeFilter;
  onMeetingTypeChange: (value: MeetingTypeFilter) => void;
}

/** Weekly attendance line chart with its meeting-type filter. */
export function AttendanceTrendSection({ filters, meetingType, onMeetingTypeChange }: Props) {
  const titleId = useId();
  const trends = useCohortTrends(filters, meetingType);
  const rows = toTrendRows(trends.data ?? []);
  const series = [meetingType !== "advisor" ? MENTOR : null, meetingType !== "mentor" ? ADVISOR : null].filter(
    (s): s is TrendSeries => s !== null,
  );
  const plotted = rows.filter((r) => series.some((s) => r[s.name] !== null));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={2} size="h3" id={titleId}>
            Attendance Trend
          </Title>
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`${titleId}-type`}>
              Meeting type
            </Text>
            <SegmentedControl
              aria-labelledby={`${titleId}-type`}
              value={meetingType}
              onChange={(v) => onMeetingTypeChange(v as MeetingTypeFilter)}
              data={[
                { value: "mentor", label: "Mentor" },
                { value: "advisor", label: "Advisor" },
                { value: "both", label: "Both" },
              ]}
            />
          </Stack>
        </Group>
        {trends.isPending ? (
          <SectionLoader label="Loading attendance trend" py="xl" />
        ) : (
          <>
            {trends.isError ? (
              <Alert color="red" variant="light">
                Failed to load attendance data
              </Alert>
            ) : null}
            {plotted.length === 0 ? (
              <EmptyState message={NO_TREND_DATA} />
            ) : (
              <Suspense
                fallback={
                  <Group justify="center" py="xl" mih={300}>
                    <Loader size="sm" aria-label="Loading chart" />
                  </Group>
                }
              >
                <TrendChart data={plotted} xKey="week" series={series} summary={trendSummary(plotted)} />
              </Suspense>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
