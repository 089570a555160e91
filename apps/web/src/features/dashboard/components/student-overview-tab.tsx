import { List, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { StudentDetail } from "@tally/contract";
import type { ReactNode } from "react";
import { displayDate } from "./display-date";
import { latestCohort } from "./latest-cohort";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Stack>
  );
}

export function StudentOverviewTab({ student }: { student: StudentDetail }) {
  const cohort = latestCohort(student);
  const team = student.activeTeam;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Field label="Current team">{team?.name ?? "No Team"}</Field>
        <Field label="Cohort">
          {cohort ? `${cohort.name} (${displayDate(cohort.start_date)} – ${displayDate(cohort.end_date)})` : "No Cohort"}
        </Field>
        <Field label="School">{student.school_name ?? "Update School"}</Field>
        <Field label="E-mail">{student.email || "—"}</Field>
        <Field label="Benefit Assignment ID">{student.benefit_assignment_id || "—"}</Field>
        <Field label="Organisation description">{team?.organization_description || "—"}</Field>
        <Field label="Project description">{team?.project_description || "—"}</Field>
      </SimpleGrid>
      <Stack gap={4}>
        <Title order={3} size="h5">
          Previous teams
        </Title>
        {student.previousTeams.length === 0 ? (
          <Text size="sm" c="dimmed">
            No previous teams
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {student.previousTeams.map((t) => (
              <List.Item key={`${t.id}-${t.joined_at}`}>
                {t.name}
                {t.project_description ? ` — ${t.project_description}` : ""}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      <Stack gap={4}>
        <Title order={3} size="h5">
          Cohorts
        </Title>
        {student.cohorts.length === 0 ? (
          <Text size="sm" c="dimmed">
            No cohort found for student
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {student.cohorts.map((c) => (
              <List.Item key={c.id}>
                {c.name}: {displayDate(c.start_date)} – {displayDate(c.end_date)}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}
