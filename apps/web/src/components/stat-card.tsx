import { Paper, Text } from "@mantine/core";

/** One labelled number, e.g. "Total Students". */
export function StatCard({ label, value }: { label: string; value: number | string }) {
  const shown = typeof value === "number" ? value.toLocaleString("en-US") : value;
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={label}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} data-testid={`stat-${label}`}>
        {shown}
      </Text>
    </Paper>
  );
}
