import { Button, Card, Stack, Text, Title } from "@mantine/core";
import type { StudentListItem } from "@tally/contract";

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

/** Grid card; missing values show the spec's defaults. */
export function StudentCard({ student, onView }: { student: StudentListItem; onView: (id: number) => void }) {
  const name = studentName(student);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={name} data-testid="student-card">
      <Stack gap={6} h="100%">
        <Title order={3} size="h5" style={{ overflowWrap: "anywhere" }}>
          {name}
        </Title>
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
