import { Paper, Text } from "@mantine/core";
import { formatWholeNumber } from "../lib/whole-number";

/** One labelled number, e.g. "Total Students", with an optional line under it ("+3 vs last week"). */
export function StatCard({ label, value, note }: { label: string; value: number | string; note?: string | undefined }) {
  const shown = typeof value === "number" ? formatWholeNumber(value) : value;
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={label}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} data-testid={`stat-${label}`}>
        {shown}
      </Text>
      {note ? (
        <Text size="xs" c="dimmed" fw={500} data-testid={`stat-${label}-change`}>
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}
