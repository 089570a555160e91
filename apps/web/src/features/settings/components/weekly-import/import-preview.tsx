import { Alert, Anchor, Box, Button, Checkbox, Group, List, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IMPORT_MESSAGES, type ImportPreview as Preview, type ImportStudentDetail, weekLabel } from "@tally/contract";
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

/** Names compared as the import matches them: case and accents aside. */
const nameKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

interface Item {
  text: string;
  /** The student of the preview's list the line is about, to show them; null when none is. */
  student: string | null;
}

/** A scrolling list inside an alert, reachable by keyboard; a line about a listed student links to them. */
function MessageList({ title, color, items, onShow }: { title: string; color: string; items: Item[]; onShow: (name: string) => void }) {
  if (items.length === 0) return null;
  return (
    <Alert color={color} title={`${title} (${items.length})`} p="sm">
      <Box mah={180} style={{ overflowY: "auto" }} tabIndex={0} role="region" aria-label={title}>
        <List size="sm" spacing={2}>
          {items.map((item, i) => (
            <List.Item key={i}>
              {item.text}
              {item.student ? (
                <>
                  {" "}
                  <Anchor component="button" type="button" size="sm" onClick={() => onShow(item.student!)}>
                    Show {item.student}
                  </Anchor>
                </>
              ) : null}
            </List.Item>
          ))}
        </List>
      </Box>
    </Alert>
  );
}

interface Props {
  preview: Preview;
  headingRef?: Ref<HTMLHeadingElement>;
  cohortName?: string;
  /** The one-click fix when most dates are of another week; absent while busy. */
  onUseWeek?: ((week: number) => void) | undefined;
}

/** "Preview Upload Summary": the counts, errors and warnings, and the students, filterable. */
export function ImportPreview({ preview, headingRef, onUseWeek }: Props) {
  const [onlyChanges, setOnlyChanges] = useState(false);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [focus, setFocus] = useState<string | null>(null);
  const [page, setPage] = useState(1);

  const listed = useMemo(() => {
    const byName = new Map<string, string>();
    for (const s of preview.processedStudentDetails) byName.set(nameKey(s.studentFullName), s.studentFullName);
    return byName;
  }, [preview]);

  /** The listed student an error or warning is about: by id, else by the name the row gives. */
  const studentOf = useMemo(() => {
    const byId = new Map<number, string>();
    for (const s of preview.processedStudentDetails) if (s.studentId !== null) byId.set(s.studentId, s.studentFullName);
    return (id: number | null | undefined, name: string | null | undefined): string | null =>
      (id != null ? byId.get(id) : undefined) ?? (name ? listed.get(nameKey(name)) : undefined) ?? null;
  }, [preview, listed]);

  const errorItems = preview.errorsEncountered.map((e) => ({ text: e.error, student: studentOf(e.studentId, e.studentName) }));
  const warningItems = preview.warnings.map((w) => ({ text: w.message, student: studentOf(w.studentId, null) }));
  const withProblems = new Set([...errorItems, ...warningItems].map((i) => i.student).filter((s): s is string => s !== null));
  const errorsWithoutStudent = errorItems.filter((i) => i.student === null).length;

  const shown = preview.processedStudentDetails.filter(
    (s) => (focus === null || s.studentFullName === focus) && (!onlyChanges || changes(s)) && (!onlyErrors || withProblems.has(s.studentFullName)),
  );
  const slice = pageOf(shown, page, PREVIEW_PAGE_SIZE);
  const mismatch = preview.weekMismatch;
  const suggested = mismatch?.suggested ?? null;

  return (
    <Stack gap="sm">
      <div>
        <Title order={3} size="h4" ref={headingRef} tabIndex={-1} style={{ outline: "none", scrollMarginTop: "4.5rem" }}>
          Preview Upload Summary
        </Title>
        <Text size="sm" c="dimmed" data-testid="preview-week">
          {weekLabel(preview.week)}
        </Text>
      </div>
      {preview.unchanged ? (
        <Alert color="blue" role="status" data-testid="import-unchanged" title="Nothing to import">
          {IMPORT_MESSAGES.unchanged(preview.unchanged)}
        </Alert>
      ) : null}
      {mismatch ? (
        <Alert color="orange" data-testid="week-mismatch" title="Check the week">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm">{IMPORT_MESSAGES.weekMismatch(preview.week, mismatch)}</Text>
            {suggested && onUseWeek ? (
              <Button size="xs" color="orange" onClick={() => onUseWeek(suggested.number)}>
                Import as week {suggested.number}
              </Button>
            ) : null}
          </Group>
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs">
        {SUMMARY_LABELS.map(([key, label]) => (
          <StatCard key={key} label={label} value={preview.summary[key]} />
        ))}
      </SimpleGrid>
      <MessageList
        title="Errors"
        color="red"
        items={errorItems}
        onShow={(name) => {
          setFocus(name);
          setPage(1);
        }}
      />
      <MessageList
        title="Warnings"
        color="yellow"
        items={warningItems}
        onShow={(name) => {
          setFocus(name);
          setPage(1);
        }}
      />
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
          {focus !== null ? (
            <Button size="xs" variant="light" onClick={() => setFocus(null)}>
              Show all students (now {focus})
            </Button>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed" role="status">
          {slice.total === 0
            ? "No students match these filters."
            : `Showing ${slice.from}–${slice.to} of ${slice.total} ${slice.total === 1 ? "student" : "students"}`}
        </Text>
      </Group>
      {onlyErrors && errorsWithoutStudent > 0 ? (
        <Text size="sm" c="dimmed" data-testid="errors-without-student">
          {errorsWithoutStudent === 1
            ? "1 error is of a row whose student is not in this list (the row is skipped); it is listed under Errors above."
            : `${errorsWithoutStudent} errors are of rows whose students are not in this list (the rows are skipped); they are listed under Errors above.`}
        </Text>
      ) : null}
      {slice.total > 0 ? <ImportStudentTable students={slice.items} /> : null}
      <PageButtons page={slice.page} pageCount={slice.pageCount} onChange={setPage} label="students" />
    </Stack>
  );
}
