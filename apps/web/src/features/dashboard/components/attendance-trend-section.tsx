import { Alert, Group, Loader, Paper, Radio, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { MeetingTypeFilter } from "@tally/contract";
import { Suspense, useId } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { lazyComponent } from "../../../lib/lazy-component";
import type { TrendSeries } from "../../../components/trend-chart";
import { useCohortTrends } from "../api/get-cohort-trends";
import type { DashboardFilters } from "../api/dashboard-filters";
import { CHOOSE_COHORT, changeText, fitAxis, latestWeekChange, toTrendRows, trendSummary, type WeekCalendar, weekLabel } from "./trend-rows";

// The charting library is the biggest part of the page: its own chunk, fetched only when the
// section renders, which is after the totals have arrived and shown.
const TrendChart = lazyComponent(() => import("../../../components/trend-chart").then((m) => m.TrendChart));

const MENTOR: TrendSeries = { name: "mentor", label: "Mentor", color: "blue.9" };
const ADVISOR: TrendSeries = { name: "advisor", label: "Advisor", color: "orange.9", dashed: true };

export const NO_TREND_DATA = "No attendance data available for the selected filters.";

interface Props {
  filters: DashboardFilters;
  q: string;
  /** The cohort whose weeks are shown (dates the weeks); null with all cohorts. */
  cohort: (WeekCalendar & { name: string }) | null;
  /** True when the view spans several cohorts: the weeks are not charted then. */
  severalCohorts: boolean;
  meetingType: MeetingTypeFilter;
  onMeetingTypeChange: (value: MeetingTypeFilter) => void;
}

function WeekFigure({ name, value }: { name: string; value: number | null }) {
  if (value === null) return null;
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={`${name} meetings attended`}>
      <Text size="sm" c="dimmed">
        {name} meetings attended
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value}%
      </Text>
    </Paper>
  );
}

/** A single week of data: its figures, not a lone dot on a chart. */
function OneWeek({ rows, label }: { rows: ReturnType<typeof latestWeekChange>; label: string }) {
  if (!rows) return null;
  return (
    <Stack gap="xs" data-testid="trend-one-week">
      <Text fw={500}>{label}</Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <WeekFigure name="Mentor" value={rows.mentor} />
        <WeekFigure name="Advisor" value={rows.advisor} />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        The first week with attendance: the change shows from the next week on.
      </Text>
    </Stack>
  );
}

/** Weekly attendance line chart with its meeting-type filter. */
export function AttendanceTrendSection({ filters, q, cohort, severalCohorts, meetingType, onMeetingTypeChange }: Props) {
  const titleId = useId();
  const trends = useCohortTrends(filters, meetingType, q, !severalCohorts);
  const points = trends.data ?? [];
  const rows = toTrendRows(points, cohort);
  const series = [meetingType !== "advisor" ? MENTOR : null, meetingType !== "mentor" ? ADVISOR : null].filter(
    (s): s is TrendSeries => s !== null,
  );
  const plotted = rows.filter((r) => series.some((s) => r[s.name] !== null));
  const axis = fitAxis(plotted.flatMap((r) => series.map((s) => r[s.name] as number | null)));
  const last = latestWeekChange(points);
  const changes = [
    last && last.mentorChange !== null && meetingType !== "advisor" ? `Mentor ${changeText(last.mentorChange)}` : null,
    last && last.advisorChange !== null && meetingType !== "mentor" ? `Advisor ${changeText(last.advisorChange)}` : null,
  ].filter(Boolean);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="sm">
          <Stack gap={2}>
            <Title order={2} size="h3" id={titleId}>
              Attendance Trend
            </Title>
            <Text size="sm" c="dimmed">
              Share of meetings attended (present or late) per week{cohort ? ` · ${cohort.name}` : ""}
              {q ? ` · students matching “${q}”` : ""}
            </Text>
          </Stack>
          {/* Radios, not a SegmentedControl: its sliding indicator measures the page's layout on
              every mount and resize, which forced a layout of the whole dashboard into its first
              render (issue 29: total blocking time). */}
          <Radio.Group
            label="Meeting type"
            value={meetingType}
            onChange={(v) => onMeetingTypeChange(v as MeetingTypeFilter)}
            labelProps={{ fw: 500 }}
          >
            <Group gap="md" mt={6}>
              <Radio value="mentor" label="Mentor" />
              <Radio value="advisor" label="Advisor" />
              <Radio value="both" label="Both" />
            </Group>
          </Radio.Group>
        </Group>
        {severalCohorts ? (
          <EmptyState message={CHOOSE_COHORT} />
        ) : trends.isPending ? (
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
            ) : plotted.length === 1 ? (
              <OneWeek rows={last} label={last ? weekLabel(last.week, cohort) : ""} />
            ) : (
              <Stack gap={4}>
                {changes.length > 0 && last ? (
                  <Text size="sm" fw={500} data-testid="trend-change">
                    {weekLabel(last.week, cohort)}: {changes.join(" · ")}
                  </Text>
                ) : null}
                <Suspense
                  fallback={
                    <Group justify="center" py="xl" mih={300}>
                      <Loader size="sm" aria-label="Loading chart" />
                    </Group>
                  }
                >
                  <TrendChart data={plotted} xKey="week" series={series} summary={trendSummary(plotted)} axis={axis} />
                </Suspense>
                <Text size="xs" c="dimmed" data-testid="trend-axis-note">
                  {axis.fromZero
                    ? `The axis runs from 0% to ${axis.domain[1]}%.`
                    : `The axis runs from ${axis.domain[0]}% to ${axis.domain[1]}%, not from zero, so that weekly changes show.`}
                </Text>
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
