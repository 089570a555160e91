import { Text } from "@mantine/core";

/** The text shown where a list, chart or table has nothing to show. */
export function EmptyState({ message }: { message: string }) {
  return (
    <Text c="dimmed" ta="center" py="lg" data-testid="empty-state">
      {message}
    </Text>
  );
}
