import { Button, Group, Loader, Text } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

interface Props<T> {
  query: UseQueryResult<T[]>;
  /** What the list holds, in the plural: "cohorts", "schools". */
  noun: string;
  children: (rows: T[]) => ReactNode;
}

/** A settings list's loading line, load error with Retry, empty text, or the list itself. */
export function ListState<T>({ query, noun, children }: Props<T>) {
  if (query.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden="true" />
        <Text size="sm">Loading {noun}...</Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Group gap="sm">
        <Text c="red" size="sm" role="alert">
          Failed to load {noun}. Please try again.
        </Text>
        <Button size="xs" variant="default" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Group>
    );
  }
  if (query.data.length === 0) return <Text size="sm">No {noun} yet. Add the first one.</Text>;
  return children(query.data);
}
