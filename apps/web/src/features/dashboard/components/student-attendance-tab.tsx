import { Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { type AttendanceRecordItem, attendanceStatusLabel, meetingTypeLabel, type StudentDetail } from "@tally/contract";
import { useState } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { useStudentAttendance } from "../api/get-student-attendance";
import { displayDate } from "./display-date";
import { latestCohort } from "./latest-cohort";
import { attendanceShares, validRecords } from "./attendance-shares";
import { AttendanceWeeks } from "./attendance-weeks";
import { CorrectAttendanceDialog, meetingText } from "./correct-attendance-dialog";

const STATUS_COLOR = { present: "green", late: "yellow", absent: "red" } as const;

/** Phones: the records as stacked rows instead of a table that scrolls sideways. */
const NARROW = "(max-width: 36em)";

/**
 * The status in words; the colour only repeats it. The words are dark on the tint: a light
 * badge's own green on green reads at 3.8:1, under the 4.5:1 small text needs.
 */
function StatusBadge({ record }: { record: AttendanceRecordItem }) {
  return (
    <Badge variant="light" color={STATUS_COLOR[record.status]} c="dark.7" radius="sm" tt="none" style={{ flexShrink: 0 }}>
      {attendanceStatusLabel(record)}
    </Badge>
  );
}

const weekOf = (r: AttendanceRecordItem) => r.formatted_week || `Week ${r.week_number}`;

/** Opens the correction of a record; absent when the caller may not edit the student. */
type OnCorrect = ((record: AttendanceRecordItem) => void) | undefined;

function CorrectButton({ record, onCorrect }: { record: AttendanceRecordItem; onCorrect: (record: AttendanceRecordItem) => void }) {
  return (
    <Button size="compact-xs" variant="subtle" aria-label={`Correct ${meetingText(record)}`} onClick={() => onCorrect(record)}>
      Correct
    </Button>
  );
}

function RecordTable({ records, onCorrect }: { records: AttendanceRecordItem[]; onCorrect: OnCorrect }) {
  return (
    <Table.ScrollContainer minWidth={420} maxHeight={360} type="native" tabIndex={0} aria-label="Attendance records">
      <Table striped stickyHeader style={{ whiteSpace: "nowrap" }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Week</Table.Th>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Meeting type</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            {onCorrect ? (
              <Table.Th scope="col">
                <VisuallyHidden>Correction</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{weekOf(r)}</Table.Td>
              <Table.Td>{displayDate(r.date)}</Table.Td>
              <Table.Td>{meetingTypeLabel(r.meeting_type)}</Table.Td>
              <Table.Td>
                <StatusBadge record={r} />
              </Table.Td>
              {onCorrect ? (
                <Table.Td>
                  <CorrectButton record={r} onCorrect={onCorrect} />
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One record a row: week and status on the first line, date and meeting type below, wrapping rather than cut. */
function RecordList({ records, onCorrect }: { records: AttendanceRecordItem[]; onCorrect: OnCorrect }) {
  return (
    <Stack component="ul" gap={0} aria-label="Attendance records" data-testid="attendance-record-list" style={{ listStyle: "none", margin: 0, padding: 0 }}>
      {records.map((r) => (
        <li key={r.id} style={{ borderBottom: "1px solid var(--mantine-color-gray-3)", padding: "var(--mantine-spacing-xs) 0", minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: "anywhere" }}>
              {weekOf(r)}
            </Text>
            <StatusBadge record={r} />
          </Group>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
              {displayDate(r.date)} · {meetingTypeLabel(r.meeting_type)}
            </Text>
            {onCorrect ? <CorrectButton record={r} onCorrect={onCorrect} /> : null}
          </Group>
        </li>
      ))}
    </Stack>
  );
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

/** Latest cohort's attendance: share tiles and every record; those who may edit the student correct a record here. */
export function StudentAttendanceTab({ student, canEdit = false }: { student: StudentDetail; canEdit?: boolean }) {
  const cohort = latestCohort(student);
  const attendance = useStudentAttendance(student.id, cohort?.id ?? null);
  const narrow = useMediaQuery(NARROW);
  const [view, setView] = useState<"records" | "weeks">("records");
  const [correcting, setCorrecting] = useState<AttendanceRecordItem | null>(null);
  const onCorrect: OnCorrect = canEdit ? setCorrecting : undefined;
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
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={3} size="h5">
          {view === "weeks" ? "Attendance by week" : "Attendance records"}
        </Title>
        {/* Issue 30: the per-week view marks the weeks with a follow-up note. */}
        <SegmentedControl
          size="xs"
          aria-label="Show attendance"
          value={view}
          onChange={(v) => setView(v as "records" | "weeks")}
          data={[
            { value: "records", label: "Records" },
            { value: "weeks", label: "By week" },
          ]}
        />
      </Group>
      {view === "weeks" ? (
        <AttendanceWeeks studentId={student.id} cohortId={cohort.id} records={records} />
      ) : narrow ? (
        <RecordList records={records} onCorrect={onCorrect} />
      ) : (
        <RecordTable records={records} onCorrect={onCorrect} />
      )}
      {correcting ? <CorrectAttendanceDialog studentId={student.id} record={correcting} onClose={() => setCorrecting(null)} /> : null}
    </Stack>
  );
}
