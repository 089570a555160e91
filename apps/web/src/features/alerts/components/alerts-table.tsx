import { Anchor, Checkbox, Table, Text } from "@mantine/core";
import { ALERT_RULE_WORDS, type Alert } from "@tally/contract";
import { Link } from "react-router";
import { ALERT_STATE_WORDS, SeverityMark } from "../../../components/alert-marks";
import { studentLink } from "../../../lib/student-link";
import classes from "./alerts-table.module.css";
import hiddenBelow from "../../../components/hidden-below.module.css";

interface Props {
  alerts: Alert[];
  selected: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
  /** A school user's own school: the student opens on their school's dashboard. */
  ownSchoolId: number | null;
}

export function sinceText(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}

/** The call list: a student's name opens their details on the Follow-up tab. */
export function AlertsTable({ alerts, selected, onToggle, onToggleAll, ownSchoolId }: Props) {
  const all = alerts.length > 0 && alerts.every((a) => selected.has(a.id));
  return (
    <Table className={classes.table} striped verticalSpacing="xs" data-testid="alerts-table">
      <Table.Thead className={hiddenBelow.xs}>
        <Table.Tr>
          <Table.Th>
            <Checkbox aria-label="Select every alert on this page" checked={all} onChange={(e) => onToggleAll(e.currentTarget.checked)} />
          </Table.Th>
          <Table.Th>Student</Table.Th>
          <Table.Th>School</Table.Th>
          <Table.Th>Cohort</Table.Th>
          <Table.Th>Team</Table.Th>
          <Table.Th>Rule</Table.Th>
          <Table.Th>Evidence</Table.Th>
          <Table.Th>Severity</Table.Th>
          <Table.Th>Since</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Assignee</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {alerts.map((a) => (
          <Table.Tr key={a.id} data-testid="alert-row">
            <Table.Td>
              <Checkbox
                aria-label={`Select ${a.studentName}: ${ALERT_RULE_WORDS[a.rule]}`}
                checked={selected.has(a.id)}
                onChange={(e) => onToggle(a.id, e.currentTarget.checked)}
              />
            </Table.Td>
            <Table.Td data-label="Student">
              <Anchor component={Link} to={studentLink(a.studentId, { tab: "follow-up", ownSchoolId })}>
                {a.studentName}
              </Anchor>
            </Table.Td>
            <Table.Td data-label="School">{a.schoolName ?? "—"}</Table.Td>
            <Table.Td data-label="Cohort">{a.cohortName}</Table.Td>
            <Table.Td data-label="Team">{a.teamName ?? "—"}</Table.Td>
            <Table.Td data-label="Rule">{ALERT_RULE_WORDS[a.rule]}</Table.Td>
            <Table.Td data-label="Evidence">
              <Text size="sm">{a.evidence}</Text>
            </Table.Td>
            <Table.Td data-label="Severity">
              <SeverityMark severity={a.severity} />
            </Table.Td>
            <Table.Td data-label="Since" className={classes.since}>
              {sinceText(a.since)}
            </Table.Td>
            <Table.Td data-label="State">
              {ALERT_STATE_WORDS[a.state]}
              {a.dataWithdrawn ? " (data withdrawn)" : ""}
            </Table.Td>
            <Table.Td data-label="Assignee">{a.assigneeName ?? "—"}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
