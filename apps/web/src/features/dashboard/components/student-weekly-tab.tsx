import { Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import type { WeeklyDataItem } from "@tally/contract";
import type { UseQueryResult } from "@tanstack/react-query";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { displayDate } from "./display-date";

export type WeeklyKind = "flags" | "reflection" | "advisor_notes";

/** "No {type} for this week". */
export const NO_WEEKLY_TEXT: Record<WeeklyKind, string> = {
  flags: "No flags for this week",
  reflection: "No reflection for this week",
  advisor_notes: "No advisor notes for this week",
};

function WeekContent({ week, kind }: { week: WeeklyDataItem; kind: WeeklyKind }) {
  if (kind === "flags") {
    if (week.flags.length === 0) return <Text size="sm" c="dimmed">{NO_WEEKLY_TEXT.flags}</Text>;
    return (
      <List size="sm" spacing={2}>
        {week.flags.map((f, i) => (
          <List.Item key={`${f.code}-${i}`}>{f.text || f.code}</List.Item>
        ))}
      </List>
    );
  }
  const text = kind === "reflection" ? week.reflection : week.advisor_notes;
  if (!text?.trim()) return <Text size="sm" c="dimmed">{NO_WEEKLY_TEXT[kind]}</Text>;
  return (
    <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
      {text}
    </Text>
  );
}

/** Flags, reflections or advisor notes, one block per week. */
export function StudentWeeklyTab({ weekly, kind }: { weekly: UseQueryResult<WeeklyDataItem[]>; kind: WeeklyKind }) {
  if (weekly.isPending) {
    return <SectionLoader label="Loading weekly data" />;
  }
  if (weekly.isError || !weekly.data || weekly.data.length === 0) {
    return <EmptyState message="No weekly data available" />;
  }
  const weeks = [...weekly.data].sort((a, b) => a.week_number - b.week_number);
  return (
    <Stack gap="sm">
      {weeks.map((w) => (
        <Paper key={w.id} withBorder p="sm" radius="md" component="article" aria-label={`Week ${w.week_number}`}>
          <Group justify="space-between" gap="xs" mb={6}>
            <Title order={3} size="h5">
              Week {w.week_number}
            </Title>
            <Text size="xs" c="dimmed">
              {displayDate(w.week_start)} · Updated {displayDate(w.updated_at)}
            </Text>
          </Group>
          <WeekContent week={w} kind={kind} />
        </Paper>
      ))}
    </Stack>
  );
}
