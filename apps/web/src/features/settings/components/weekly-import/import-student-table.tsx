import { Badge, Stack, Table, Text } from "@mantine/core";
import type { ImportAction, ImportStudentDetail } from "@tally/contract";
import { ReportRowsUsed } from "../../../../components/report-rows-used";

/** Background colour and a text shade dark enough for 4.5:1 on it (small bold text). */
const ACTION_COLORS: Record<ImportAction, { color: string; text: string }> = {
  created: { color: "green", text: "#1f6d31" },
  updated: { color: "orange", text: "#a33a08" },
  none: { color: "gray", text: "#343a40" },
};
const EXCERPT_LENGTH = 70;

/** The spec's reflection excerpt: the first 70 characters, then "…" when there is more. */
export function excerpt(text: string | null): string {
  if (!text) return "—";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function ActionBadge({ action }: { action: ImportAction }) {
  return (
    <Badge size="sm" variant="light" color={ACTION_COLORS[action].color} c={ACTION_COLORS[action].text} tt="none">
      {action}
    </Badge>
  );
}

/** One page of the preview's students: who, what happens to their week, and each meeting row. */
export function ImportStudentTable({ students }: { students: ImportStudentDetail[] }) {
  return (
    <Table.ScrollContainer minWidth={960} type="native" tabIndex={0} role="region" aria-label="Students table, scrolls sideways">
      <Table striped verticalSpacing="xs" aria-label="Students in the files" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={220}>Student · school · team</Table.Th>
            <Table.Th scope="col" w={90}>Weekly data</Table.Th>
            <Table.Th scope="col" w={190}>Flags</Table.Th>
            <Table.Th scope="col" w={64} ta="right">Hours</Table.Th>
            <Table.Th scope="col">Reflection</Table.Th>
            <Table.Th scope="col" w={290}>Attendance</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {students.map((student, index) => {
            const { weeklyData } = student;
            return (
              <Table.Tr key={`${student.studentId ?? "new"}-${student.studentFullName}-${index}`} data-testid="preview-student">
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {student.studentFullName}
                  </Text>
                  <Text size="xs" data-testid="preview-student-place">
                    {student.schoolName ?? "No school"} · {student.teamName ?? "no team"}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {student.studentId === null ? "ID assigned on save" : `ID ${student.studentId}`}
                  </Text>
                  <Badge size="xs" mt={2} variant="outline" color={student.isNewStudent ? "blue.8" : "gray.7"} tt="none">
                    {student.isNewStudent ? "New" : "Existing"}
                  </Badge>
                  <ReportRowsUsed choices={student.rowsUsed} />
                </Table.Td>
                <Table.Td>
                  <ActionBadge action={weeklyData.action} />
                </Table.Td>
                <Table.Td>
                  {weeklyData.flags.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      No flags
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      {weeklyData.flags.map((flag) => (
                        <Text key={flag.code} size="xs" c="red.9">
                          {flag.text}
                        </Text>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td ta="right">{weeklyData.total_hours_reported ?? "—"}</Table.Td>
                <Table.Td>
                  <Text size="sm" title={weeklyData.reflection ?? undefined}>
                    {excerpt(weeklyData.reflection)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {student.attendance.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      No meetings
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      {student.attendance.map((row) => (
                        <Text component="div" key={`${row.date}-${row.meetingType}`} size="xs" style={{ whiteSpace: "nowrap" }}>
                          {row.date} · {capital(row.status)} · {capital(row.meetingType)} · <ActionBadge action={row.action} />
                        </Text>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
