import { Table, Text } from "@mantine/core";
import { type AttendanceRecordItem, attendanceStatusLabel } from "@tally/contract";
import { useStudentAlerts } from "../api/get-student-alerts";

interface WeekRow {
  week: number;
  label: string;
  mentor: string;
  advisor: string;
}

const statusOf = (records: AttendanceRecordItem[]) =>
  records.length === 0 ? "No meeting" : records.map((r) => attendanceStatusLabel(r)).join(", ");

/**
 * One row a week: the mentor and the advisor meeting's status side by side. A week with a
 * follow-up note has its row even before its meetings are imported: a note is usually written
 * in the week after the latest import, and its mark must show as soon as it is saved.
 */
export function weekRows(records: AttendanceRecordItem[], notedWeeks: Iterable<number> = []): WeekRow[] {
  const weeks = new Map<number, AttendanceRecordItem[]>();
  for (const r of records) weeks.set(r.week_number, [...(weeks.get(r.week_number) ?? []), r]);
  for (const week of notedWeeks) if (!weeks.has(week)) weeks.set(week, []);
  return [...weeks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([week, rs]) => ({
      week,
      label: rs[0]?.formatted_week || `Week ${week}`,
      mentor: statusOf(rs.filter((r) => r.meeting_type === "mentor")),
      advisor: statusOf(rs.filter((r) => r.meeting_type === "advisor")),
    }));
}

/**
 * The student's meetings by week, marking the weeks with a follow-up note (issue 30), so
 * attendance before and after an intervention reads at a glance. The mark is a glyph and words.
 */
export function AttendanceWeeks({ studentId, cohortId, records }: { studentId: number; cohortId: number; records: AttendanceRecordItem[] }) {
  const alerts = useStudentAlerts(studentId);
  const noted = new Set((alerts.data?.noteWeeks ?? []).filter((n) => n.cohortId === cohortId).map((n) => n.week));
  return (
    <Table.ScrollContainer minWidth={320} type="native" tabIndex={0} aria-label="Attendance by week">
      <Table striped data-testid="attendance-weeks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Week</Table.Th>
            <Table.Th scope="col">Mentor</Table.Th>
            <Table.Th scope="col">Advisor</Table.Th>
            <Table.Th scope="col">Follow-up</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {weekRows(records, noted).map((w) => (
            <Table.Tr key={w.week} data-testid="attendance-week">
              <Table.Td>{w.label}</Table.Td>
              <Table.Td>{w.mentor}</Table.Td>
              <Table.Td>{w.advisor}</Table.Td>
              <Table.Td>
                {noted.has(w.week) ? (
                  <Text size="sm" fw={600} data-testid="note-week-mark">
                    <span aria-hidden="true">✎ </span>Follow-up note
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
