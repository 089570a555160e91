import { Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import type { StudentsSummary } from "@tally/contract";
import { Link } from "react-router";
import { StatCard } from "../../../components/stat-card";
import { formatWholeNumber } from "../../../lib/whole-number";
import { changeText, type WeekChange } from "./trend-rows";

interface Props {
  summary: StudentsSummary;
  showSchoolCard: boolean;
  /** The newest week's attendance and its change; undefined while it loads or when weeks are not comparable. */
  latest?: WeekChange | null | undefined;
  /** "Week 4 · 16–22 Nov". */
  latestLabel?: string | undefined;
  /** Open and acknowledged alerts under the filters, and the call list with those filters (issue 30). */
  attention?: { total: number; to: string } | undefined;
}

/** The "Needs attention" card: the whole card is the link to the call list under the same filters. */
function AttentionCard({ total, to }: { total: number; to: string }) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component={Link}
      to={to}
      data-testid="stat-needs-attention"
      style={{ color: "inherit", textDecoration: "none" }}
    >
      <Text size="sm" c="dimmed" fw={500}>
        <span aria-hidden="true">⚑ </span>Needs attention
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {formatWholeNumber(total)}
      </Text>
      <Text size="xs" c="dimmed" fw={500} td="underline">
        Open the list
      </Text>
    </Paper>
  );
}

function AttendedLine({ name, value, change }: { name: string; value: number | null; change: number | null }) {
  if (value === null) return null;
  return (
    <Group gap={6} wrap="wrap" align="baseline">
      <Text fw={700} fz={22} lh={1.2}>
        {value}%
      </Text>
      <Text size="sm">{name}</Text>
      <Text size="xs" c={change === null || change === 0 ? "dimmed" : change > 0 ? "teal.9" : "red.9"} fw={500} w="100%">
        {change === null ? "first week" : changeText(change)}
      </Text>
    </Group>
  );
}

type Total = "schoolCount" | "studentCount" | "cohortCount" | "teamCount";

/**
 * A total's change since this week began, in words: "+3 vs last week", "−2 vs last week",
 * "no change", "no earlier week" (nothing under these filters existed then). Undefined while
 * the server has not said.
 */
export function totalChangeText(summary: StudentsSummary, total: Total): string | undefined {
  if (summary.previousWeek === undefined) return undefined;
  if (summary.previousWeek === null) return "no earlier week";
  const change = summary[total] - summary.previousWeek[total];
  if (change === 0) return "no change";
  return `${change > 0 ? "+" : "−"}${formatWholeNumber(Math.abs(change))} vs last week`;
}

/** The four totals (Total Schools left out for school users), each with its week-over-week change, and the newest week's attendance with its change. */
export function DashboardStats({ summary, showSchoolCard, latest, latestLabel, attention }: Props) {
  const cards = (showSchoolCard ? 4 : 3) + (latest ? 1 : 0) + (attention ? 1 : 0);
  const total = (label: string, key: Total) => (
    <StatCard label={label} value={summary[key]} note={totalChangeText(summary, key)} />
  );
  return (
    <SimpleGrid cols={{ base: 2, md: cards }} spacing="sm">
      {showSchoolCard ? total("Total Schools", "schoolCount") : null}
      {total("Total Students", "studentCount")}
      {total("Total Cohorts", "cohortCount")}
      {total("Total Teams", "teamCount")}
      {attention ? <AttentionCard total={attention.total} to={attention.to} /> : null}
      {latest ? (
        <Paper withBorder p="md" radius="md" role="group" aria-label="Attendance this week" data-testid="stat-attendance">
          <Text size="sm" c="dimmed" fw={500}>
            Attended, {latestLabel}
          </Text>
          <Stack gap={4}>
            <AttendedLine name="mentor" value={latest.mentor} change={latest.mentorChange} />
            <AttendedLine name="advisor" value={latest.advisor} change={latest.advisorChange} />
          </Stack>
        </Paper>
      ) : null}
    </SimpleGrid>
  );
}
