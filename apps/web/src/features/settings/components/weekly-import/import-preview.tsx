import { Alert, Box, Checkbox, Group, List, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ImportPreview as Preview, ImportStudentDetail } from "@tally/contract";
import { type Ref, useMemo, useState } from "react";
import { PageButtons } from "../../../../components/page-buttons";
import { StatCard } from "../../../../components/stat-card";
import { pageOf } from "../../../../lib/paging";
import { ImportStudentTable } from "./import-student-table";

/** A real week has hundreds of students: the list is shown a page at a time. */
export const PREVIEW_PAGE_SIZE = 50;

export const SUMMARY_LABELS = [
  ["totalStudentsInFiles", "Students in files"],
  ["newStudentsCreatedCount", "New students"],
  ["attendanceRecordsCreated", "Attendance created"],
  ["attendanceRecordsUpdated", "Attendance updated"],
  ["weeklyDataCreated", "Weekly data created"],
  ["weeklyDataUpdated", "Weekly data updated"],
  ["studentsProcessedForWeeklyData", "Students processed"],
] as const;

const changes = (s: ImportStudentDetail) =>
  s.isNewStudent || s.weeklyData.action !== "none" || s.attendance.some((a) => a.action !== "none");

/** A scrolling list inside an alert, reachable by keyboard. */
function MessageList({ title, color, items }: { title: string; color: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <Alert color={color} title={`${title} (${items.length})`} p="sm">
      <Box mah={180} style={{ overflowY: "auto" }} tabIndex={0} role="region" aria-label={title}>
        <List size="sm" spacing={2}>
          {items.map((text, i) => (
            <List.Item key={i}>{text}</List.Item>
          ))}
        </List>
      </Box>
    </Alert>
  );
}

/** "Preview Upload Summary": the counts, errors and warnings, and the students, filterable. */
export function ImportPreview({ preview, headingRef }: { preview: Preview; headingRef?: Ref<HTMLHeadingElement> }) {
  const [onlyChanges, setOnlyChanges] = useState(false);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [page, setPage] = useState(1);

  const withProblems = useMemo(() => {
    const ids = new Set<number>();
    for (const e of preview.errorsEncountered) if (e.studentId !== null) ids.add(e.studentId);
    for (const w of preview.warnings) if (w.studentId != null) ids.add(w.studentId);
    return ids;
  }, [preview]);

  const shown = useMemo(
    () =>
      preview.processedStudentDetails.filter(
        (s) => (!onlyChanges || changes(s)) && (!onlyErrors || (s.studentId !== null && withProblems.has(s.studentId))),
      ),
    [preview, onlyChanges, onlyErrors, withProblems],
  );
  const slice = pageOf(shown, page, PREVIEW_PAGE_SIZE);

  return (
    <Stack gap="sm">
      <Title order={3} size="h4" ref={headingRef} tabIndex={-1} style={{ outline: "none", scrollMarginTop: "4.5rem" }}>
        Preview Upload Summary
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs">
        {SUMMARY_LABELS.map(([key, label]) => (
          <StatCard key={key} label={label} value={preview.summary[key]} />
        ))}
      </SimpleGrid>
      <MessageList title="Errors" color="red" items={preview.errorsEncountered.map((e) => e.error)} />
      <MessageList title="Warnings" color="yellow" items={preview.warnings.map((w) => w.message)} />
      <Group justify="space-between" wrap="wrap">
        <Group gap="md">
          <Checkbox
            label="Only changes"
            checked={onlyChanges}
            onChange={(event) => {
              setOnlyChanges(event.currentTarget.checked);
              setPage(1);
            }}
          />
          <Checkbox
            label="Only errors"
            checked={onlyErrors}
            onChange={(event) => {
              setOnlyErrors(event.currentTarget.checked);
              setPage(1);
            }}
          />
        </Group>
        <Text size="sm" c="dimmed" role="status">
          {slice.total === 0
            ? "No students match these filters."
            : `Showing ${slice.from}–${slice.to} of ${slice.total} ${slice.total === 1 ? "student" : "students"}`}
        </Text>
      </Group>
      {onlyErrors && preview.errorsEncountered.some((e) => e.studentId === null) ? (
        <Text size="sm" c="dimmed">
          Rows that matched no student are listed under Errors above.
        </Text>
      ) : null}
      {slice.total > 0 ? <ImportStudentTable students={slice.items} /> : null}
      <PageButtons page={slice.page} pageCount={slice.pageCount} onChange={setPage} label="students" />
    </Stack>
  );
}
