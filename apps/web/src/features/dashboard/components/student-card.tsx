import { Badge, Button, Card, Group, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import type { StudentListItem } from "@tally/contract";
import { NeedsAttentionMark } from "../../../components/alert-marks";

export function studentName(s: { first_name: string; last_name: string }): string {
  return `${s.first_name} ${s.last_name}`.trim();
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Text size="sm">
      <Text span c="dimmed" size="sm">
        {label}:{" "}
      </Text>
      {value}
    </Text>
  );
}

/** "Week 3 · 2 flags · 75% attended": the student's newest week, so a cohort can be scanned without opening each. */
export function latestWeekText(week: StudentListItem["latestWeek"]): string {
  if (!week) return "No weekly data yet";
  const flags = week.flagCount === 1 ? "1 flag" : `${week.flagCount} flags`;
  const attended = week.attendedPercent === null ? "no meetings recorded" : `${week.attendedPercent}% attended`;
  return `Week ${week.week} · ${flags} · ${attended}`;
}

/** The week's figures as two badges: flags (red when any) and the attended share. */
export function LatestWeekBadges({ week }: { week: StudentListItem["latestWeek"] }) {
  if (!week) {
    return (
      <Text size="xs" c="dimmed">
        No weekly data yet
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap" aria-label={latestWeekText(week)} role="group">
      <Text size="xs" c="dimmed" aria-hidden="true">
        Week {week.week}
      </Text>
      <Badge size="sm" variant="light" tt="none" color={week.flagCount > 0 ? "red" : "gray"} aria-hidden="true">
        {week.flagCount === 1 ? "1 flag" : `${week.flagCount} flags`}
      </Badge>
      <Badge size="sm" variant="light" tt="none" color="blue" aria-hidden="true">
        {week.attendedPercent === null ? "no meetings" : `${week.attendedPercent}% attended`}
      </Badge>
    </Group>
  );
}

/** Grid card; missing values show the spec's defaults. */
interface CardProps {
  student: StudentListItem;
  onView: (id: number) => void;
  /** The student has an open or acknowledged alert (issue 30). */
  needsAttention?: boolean;
}

export function StudentCard({ student, onView, needsAttention = false }: CardProps) {
  const name = studentName(student);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={name} data-testid="student-card">
      <Stack gap={6} h="100%">
        <Title order={3} size="h5" style={{ overflowWrap: "anywhere" }}>
          {name}
        </Title>
        {needsAttention ? <NeedsAttentionMark /> : null}
        <LatestWeekBadges week={student.latestWeek} />
        <Line label="Cohort" value={student.cohort?.name ?? "No Cohort"} />
        <Line label="Team" value={student.team?.name ?? "No Team"} />
        <Line label="School" value={student.school_name ?? "Update School"} />
        <Button
          mt="auto"
          variant="light"
          size="xs"
          onClick={() => onView(student.id)}
          aria-label={`View Details for ${name}`}
        >
          View Details
        </Button>
      </Stack>
    </Card>
  );
}

/** One row of the compact list phones get: name, team, school and the week's figures; the whole row opens the detail. */
export function StudentRow({ student, onView, needsAttention = false }: CardProps) {
  const name = studentName(student);
  return (
    <UnstyledButton
      onClick={() => onView(student.id)}
      // Named by what it shows (the name first), so what is read out matches what is seen.
      data-testid="student-row"
      py={8}
      px={4}
      w="100%"
      style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
    >
      <Stack gap={2}>
        <Text fw={600} size="sm" style={{ overflowWrap: "anywhere" }}>
          {name}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {student.team?.name ?? "No Team"} · {student.school_name ?? "Update School"}
        </Text>
        {needsAttention ? <NeedsAttentionMark /> : null}
        <LatestWeekBadges week={student.latestWeek} />
      </Stack>
    </UnstyledButton>
  );
}
