import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import type { ImportBatch } from "@tally/contract";
import { ModalShell } from "../../../../components/modal-shell";
import { errorText } from "../../../../lib/api-error";
import { useUndoImport } from "../../api/undo-import";
import { batchDateText } from "./recent-imports-text";

interface Props {
  batch: ImportBatch;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** "Undo import": names what will be removed before anything is. */
export function UndoImportDialog({ batch, onClose, onDone }: Props) {
  const undo = useUndoImport();
  const cohort = batch.cohortName ?? `cohort ${batch.cohortId}`;
  const { summary } = batch;
  const updated = summary.attendanceRecordsUpdated + summary.weeklyDataUpdated;
  const run = () =>
    undo.mutate(batch.id, {
      onSuccess: (reply) => {
        onDone(reply.message);
        onClose();
      },
    });
  return (
    <ModalShell title="Undo import" onClose={onClose}>
      <Stack gap="sm">
        {undo.isError ? (
          <Alert color="red" role="alert">
            {errorText(undo.error, "Failed to undo the import. Please try again.")}
          </Alert>
        ) : null}
        <Text size="sm">
          This restores {cohort}, week {batch.weekNumber}, to how it was before the import of {batchDateText(batch.createdAt)}. It removes:
        </Text>
        <List size="sm" spacing={2}>
          <List.Item>
            the {summary.attendanceRecordsCreated} attendance records and {summary.weeklyDataCreated} weekly records it created
          </List.Item>
          {summary.newStudentsCreatedCount > 0 ? (
            <List.Item>the {summary.newStudentsCreatedCount} students it created, where nothing else refers to them</List.Item>
          ) : null}
          {batch.createdCohort ? <List.Item>the cohort itself ({cohort})</List.Item> : null}
        </List>
        {updated > 0 ? (
          <Text size="sm">
            The {summary.attendanceRecordsUpdated} attendance and {summary.weeklyDataUpdated} weekly records it updated get their
            previous values back.
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={undo.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={run} disabled={undo.isPending}>
            {undo.isPending ? "Undoing..." : "Undo import"}
          </Button>
        </Group>
      </Stack>
    </ModalShell>
  );
}
