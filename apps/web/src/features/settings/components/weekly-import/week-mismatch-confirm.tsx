import { Alert, Button, Group, Text } from "@mantine/core";
import { type ImportPreview, weekRangeText } from "@tally/contract";

interface Props {
  preview: ImportPreview;
  busy: boolean;
  onCommit: () => void;
  onUseWeek: (week: number) => void;
  onCancel: () => void;
}

/** The extra confirmation before committing into a week most of the file's dates are not in. */
export function WeekMismatchConfirm({ preview, busy, onCommit, onUseWeek, onCancel }: Props) {
  const mismatch = preview.weekMismatch;
  if (!mismatch) return null;
  const { week } = preview;
  const suggested = mismatch.suggested;
  return (
    <Alert color="orange" role="alertdialog" aria-label="Import into this week?" data-testid="week-confirm" p="sm">
      <Text size="sm" fw={600}>
        {mismatch.outsideCount} of {mismatch.dateCount} meeting dates are not in week {week.number} ({weekRangeText(week.start, week.end)}).
        Import them as week {week.number} anyway?
      </Text>
      <Group justify="flex-end" gap="sm" mt="xs">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        {suggested ? (
          <Button variant="light" onClick={() => onUseWeek(suggested.number)} disabled={busy}>
            Import as week {suggested.number}
          </Button>
        ) : null}
        <Button color="orange" onClick={onCommit} disabled={busy}>
          {busy ? "Committing..." : `Yes, import as week ${week.number}`}
        </Button>
      </Group>
    </Alert>
  );
}
