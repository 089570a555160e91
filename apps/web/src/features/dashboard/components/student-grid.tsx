import { Alert, Anchor, Button, Group, Loader, Pagination, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useId } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { pageBounds } from "../../../lib/paging";
import type { DashboardFilters } from "../api/dashboard-filters";
import { useStudents } from "../api/get-students";
import { StudentCard, StudentRow } from "./student-card";

export const STUDENTS_PER_PAGE = 24;

interface Props {
  filters: DashboardFilters;
  q: string;
  /** Runs a suggested search ("Did you mean …?"). */
  onSearch: (q: string) => void;
  page: number;
  onPageChange: (page: number) => void;
  onView: (id: number) => void;
  /** Students with an open or acknowledged alert, marked "Needs attention". */
  needsAttention?: ReadonlySet<number>;
}

/** "Students (n)": one server page of cards at a time, n being the server's exact total. */
export function StudentGrid({ filters, q, onSearch, page, onPageChange, onView, needsAttention }: Props) {
  const titleId = useId();
  // Phones get a compact list: tall cards made 35 screens of scrolling of a cohort.
  const compact = useMediaQuery("(max-width: 35.99em)") ?? false;
  const students = useStudents({ filters, q, page, limit: STUDENTS_PER_PAGE });
  const total = students.data?.total ?? 0;
  const { pageCount: pages, from: first, to: last } = pageBounds(page, STUDENTS_PER_PAGE, total);
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="center">
        <Title order={2} size="h3" id={titleId}>
          Students ({total})
        </Title>
        {students.isFetching && !students.isPending ? <Loader size="xs" aria-label="Updating students" /> : null}
      </Group>
      {students.isPending ? (
        <SectionLoader label="Loading students" py="xl" />
      ) : students.isError ? (
        <Alert color="red" variant="light">
          <Group justify="space-between">
            <Text size="sm">Failed to load dashboard data. Please try again.</Text>
            <Button size="xs" variant="white" color="red" onClick={() => void students.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : total === 0 ? (
        <Stack gap="xs">
          <EmptyState message={q ? `No students found for “${q}”.` : "No students found matching the current filters."} />
          {students.data.suggestion ? (
            <Text ta="center" size="sm">
              Did you mean{" "}
              <Anchor component="button" type="button" onClick={() => onSearch(students.data.suggestion ?? "")}>
                {students.data.suggestion}
              </Anchor>
              ?
            </Text>
          ) : null}
        </Stack>
      ) : (
        <>
          {compact ? (
            <Stack gap={0} aria-busy={students.isPlaceholderData}>
              {students.data.data.map((s) => (
                <StudentRow key={s.id} student={s} onView={onView} needsAttention={needsAttention?.has(s.id) ?? false} />
              ))}
            </Stack>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" aria-busy={students.isPlaceholderData}>
              {students.data.data.map((s) => (
                <StudentCard key={s.id} student={s} onView={onView} needsAttention={needsAttention?.has(s.id) ?? false} />
              ))}
            </SimpleGrid>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              Showing {first}–{last} of {total}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={Math.min(page, pages)}
                onChange={onPageChange}
                siblings={1}
                boundaries={1}
                size="sm"
                getControlProps={(control) => ({ "aria-label": `Go to ${control} page` })}
                getItemProps={(p) => ({ "aria-label": `Page ${p}` })}
              />
            ) : null}
          </Group>
        </>
      )}
    </Stack>
  );
}
