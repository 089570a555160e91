import { Card, Group, List, Stack, Text, Title } from "@mantine/core";
import { ALERT_RULE_WORDS, type AlertEvent } from "@tally/contract";
import { ALERT_STATE_WORDS, SeverityMark } from "../../../components/alert-marks";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { useStudentAlerts } from "../api/get-student-alerts";
import { FollowUpActions } from "./follow-up-actions";

const EVENT_WORDS: Record<AlertEvent["kind"], string> = {
  opened: "Raised",
  escalated: "Escalated",
  acknowledged: "Acknowledged",
  resolved: "Resolved",
  dismissed: "Dismissed",
  assigned: "Assigned",
  reopened: "Reopened",
  condition_ended: "Condition ended",
  data_withdrawn: "Data withdrawn",
  withdrawn: "Withdrawn",
};

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
};

/** The student's alerts: evidence, severity, state, the actions and each alert's timeline (issue 30). */
export function StudentFollowUpTab({ studentId, canAssign }: { studentId: number; canAssign: boolean }) {
  const alerts = useStudentAlerts(studentId);
  if (alerts.isPending) return <SectionLoader label="Loading follow-up" />;
  if (alerts.isError) return <EmptyState message="The follow-up could not be loaded." />;
  if (alerts.data.data.length === 0) return <EmptyState message="No alerts for this student." />;
  return (
    <Stack gap="md">
      {alerts.data.data.map((a) => (
        <Card key={a.id} withBorder radius="md" padding="sm" component="article" aria-label={ALERT_RULE_WORDS[a.rule]} data-testid="follow-up-alert">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Title order={3} size="h5">
                {ALERT_RULE_WORDS[a.rule]} · {a.cohortName}
              </Title>
              <Group gap="xs">
                <SeverityMark severity={a.severity} />
                <Text size="sm" fw={600} data-testid="alert-state">
                  {ALERT_STATE_WORDS[a.state]}
                  {a.dataWithdrawn ? " (data withdrawn)" : ""}
                </Text>
              </Group>
            </Group>
            <Text size="sm">{a.evidence}</Text>
            <Text size="xs" c="dimmed">
              Since {when(a.since)} · Assigned to {a.assigneeName ?? "nobody"}
            </Text>
            <FollowUpActions alert={a} canAssign={canAssign} />
            <Title order={4} size="h6">
              Timeline
            </Title>
            <List size="sm" spacing={2} aria-label={`Timeline of ${ALERT_RULE_WORDS[a.rule]}`}>
              {a.timeline.map((e, i) => (
                <List.Item key={`${e.at}-${i}`}>
                  {when(e.at)}: {EVENT_WORDS[e.kind]}
                  {e.userName ? ` by ${e.userName}` : ""}
                  {e.note ? ` — “${e.note}”` : ""}
                </List.Item>
              ))}
            </List>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
