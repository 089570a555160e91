import { Stack, Text } from "@mantine/core";
import type { ReportRowChoice } from "@tally/contract";

/**
 * Which row of a report was used for a student the report names more than once (issue 41.12):
 * "reflections.csv: row 2 used (rows 2, 4)". A row with a bad value is never the one used.
 */
export function reportRowUsedText(choice: ReportRowChoice): string {
  const rows = choice.rows.join(", ");
  return choice.row === null ? `${choice.file}: no row used (rows ${rows} each have an error)` : `${choice.file}: row ${choice.row} used (rows ${rows})`;
}

/** The preview's and the verification step's note under a student with several rows in a report; nothing otherwise. */
export function ReportRowsUsed({ choices }: { choices: readonly ReportRowChoice[] | undefined }) {
  if (!choices || choices.length === 0) return null;
  return (
    <Stack gap={0} data-testid="report-rows-used">
      {choices.map((choice) => (
        <Text key={choice.file} size="xs" c="dimmed">
          {reportRowUsedText(choice)}
        </Text>
      ))}
    </Stack>
  );
}
