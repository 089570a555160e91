import { Box, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { StudentDetail } from "@tally/contract";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { useStudentAttendance } from "../api/get-student-attendance";
import { displayDate } from "./display-date";
import { latestCohort } from "./latest-cohort";
import { attendanceShares, validRecords } from "./attendance-shares";

const STATUS_COLOR = { present: "green", late: "yellow", absent: "red" } as const;

function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function Tile({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={`${label} ${value}%`}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={700} data-testid={`attendance-${label.toLowerCase()}`}>
        {value}%
      </Text>
    </Paper>
  );
}

/** Latest cohort's attendance: share tiles and every record. */
export function StudentAttendanceTab({ student }: { student: StudentDetail }) {
  const cohort = latestCohort(student);
  const attendance = useStudentAttendance(student.id, cohort?.id ?? null);
  if (!cohort) return <EmptyState message="No cohort found for student" />;
  if (attendance.isPending) {
    return <SectionLoader label="Loading attendance" />;
  }
  if (attendance.isError || !attendance.data) return <EmptyState message="No attendance data available" />;
  if (attendance.data.data.length === 0) return <EmptyState message="No attendance records available" />;
  const records = validRecords(attendance.data.data, cohort.id).sort(
    (a, b) => a.week_number - b.week_number || a.date.localeCompare(b.date) || a.meeting_type.localeCompare(b.meeting_type),
  );
  const shares = attendanceShares(records);
  if (!shares) return <EmptyState message="No valid attendance records found for this cohort." />;
  return (
    <Stack gap="md">
      <Text size="sm">
        <Text span fw={600}>
          {cohort.name}
        </Text>{" "}
        ({displayDate(cohort.start_date)} – {displayDate(cohort.end_date)})
      </Text>
      <SimpleGrid cols={3} spacing="sm">
        <Tile label="Present" value={shares.present} />
        <Tile label="Late" value={shares.late} />
        <Tile label="Absent" value={shares.absent} />
      </SimpleGrid>
      <Title order={3} size="h5">
        Attendance records
      </Title>
      <Table.ScrollContainer minWidth={420} maxHeight={360} type="native" tabIndex={0} aria-label="Attendance records">
        <Table striped stickyHeader style={{ whiteSpace: "nowrap" }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Week</Table.Th>
              <Table.Th scope="col">Date</Table.Th>
              <Table.Th scope="col">Meeting type</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.formatted_week || `Week ${r.week_number}`}</Table.Td>
                <Table.Td>{displayDate(r.date)}</Table.Td>
                <Table.Td>{capitalise(r.meeting_type)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Box w={8} h={8} bg={`${STATUS_COLOR[r.status]}.7`} style={{ borderRadius: "50%" }} aria-hidden="true" />
                    <Text size="sm">{capitalise(r.status)}</Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
