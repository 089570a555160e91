import { Alert, Group, List, Loader, ScrollArea, Text } from "@mantine/core";
import { useRetentionPreview } from "../api/get-retention-preview";

/** What a retention run with `years` would remove now: the count and the names, asked as the years change. */
export function RetentionPreview({ years }: { years: number }) {
  const preview = useRetentionPreview(years);
  if (preview.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden="true" />
        <Text size="sm">Checking which students this would remove...</Text>
      </Group>
    );
  }
  if (preview.isError) {
    return (
      <Alert color="red" role="alert">
        Failed to load what retention would remove. Please try again.
      </Alert>
    );
  }
  const { students, names } = preview.data;
  const ago = `${years} ${years === 1 ? "year" : "years"} ago`;
  return (
    <div role="status" aria-label="Retention preview">
      <Text size="sm" fw={600}>
        {students === 0
          ? `A run now would remove no students (none whose last cohort ended more than ${ago}).`
          : `A run now would remove ${students} ${students === 1 ? "student" : "students"} whose last cohort ended more than ${ago}:`}
      </Text>
      {names.length > 0 && (
        <ScrollArea.Autosize mah={180} type="auto">
          <List size="sm" aria-label="Students retention would remove">
            {names.map((name, i) => (
              // Two students may share a name: the position keeps the keys apart.
              <List.Item key={`${i}-${name}`}>{name}</List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      )}
      {names.length < students && (
        <Text size="xs" c="dimmed">
          and {students - names.length} more.
        </Text>
      )}
    </div>
  );
}
