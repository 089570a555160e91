import { Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import type { TrendPoint } from "@tally/contract";
import { useId } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { useCohortTrends } from "../api/get-cohort-trends";
import type { DashboardFilters } from "../api/dashboard-filters";
import classes from "./attendance-table.module.css";
import { CHOOSE_COHORT, type WeekCalendar, weekLabel } from "./trend-rows";

/** Below this width the table scrolls sideways inside its box instead of squeezing the columns. */
const TABLE_MIN_WIDTH = 520;
export const SCROLL_HINT = "Scroll sideways for advisor columns";

function percent(value: number | null): string {
  return value === null ? "—" : `${value}%`;
}

interface Props {
  filters: DashboardFilters;
  q: string;
  /** The cohort whose weeks are listed (dates each week); null with all cohorts. */
  cohort: WeekCalendar | null;
  /** The view spans several cohorts: their weeks are not added together. */
  severalCohorts: boolean;
}

/** Per-week mentor and advisor present/late percentages; also the chart's data alternative. */
export function AttendanceTable({ filters, q, cohort, severalCohorts }: Props) {
  const titleId = useId();
  const hintId = `${titleId}-hint`;
  // The hint shows only when the box really is narrower than the table (phones).
  const { ref: boxRef, width: boxWidth } = useElementSize();
  const narrow = boxWidth > 0 && boxWidth < TABLE_MIN_WIDTH;
  const trends = useCohortTrends(filters, "both", q, !severalCohorts);
  // Spec: a failed attendance fetch counts as an empty list.
  const weeks: TrendPoint[] = trends.data ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm" ref={boxRef}>
        <Title order={2} size="h3" id={titleId}>
          Attendance by Week
        </Title>
        {severalCohorts ? (
          <EmptyState message={CHOOSE_COHORT} />
        ) : trends.isPending ? (
          <SectionLoader label="Loading attendance table" />
        ) : weeks.length === 0 ? (
          <EmptyState message="No attendance records found." />
        ) : (
          <>
            {narrow ? (
              <Text size="sm" c="dimmed" id={hintId}>
                {SCROLL_HINT} <span aria-hidden="true">→</span>
              </Text>
            ) : null}
            <Table.ScrollContainer
              minWidth={TABLE_MIN_WIDTH}
              maxHeight={420}
              type="native"
              tabIndex={0}
              aria-labelledby={titleId}
              aria-describedby={narrow ? hintId : undefined}
              className={classes.scroller}
            >
              <Table striped highlightOnHover stickyHeader aria-labelledby={titleId}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Week</Table.Th>
                    <Table.Th scope="col">Mentor present</Table.Th>
                    <Table.Th scope="col">Mentor late</Table.Th>
                    <Table.Th scope="col">Advisor present</Table.Th>
                    <Table.Th scope="col">Advisor late</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {weeks.map((w) => (
                    <Table.Tr key={w.week}>
                      <Table.Th scope="row" fw={500} style={{ whiteSpace: "nowrap" }}>
                        {weekLabel(w.week, cohort)}
                      </Table.Th>
                      <Table.Td>{percent(w.mentorPresent)}</Table.Td>
                      <Table.Td>{percent(w.mentorLate)}</Table.Td>
                      <Table.Td>{percent(w.advisorPresent)}</Table.Td>
                      <Table.Td>{percent(w.advisorLate)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Stack>
    </Paper>
  );
}
