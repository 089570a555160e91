import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import type { ImportBatch, ImportUndoConflict } from "@tally/contract";
import { useState } from "react";
import { ModalShell } from "../../../../components/modal-shell";
import { errorText } from "../../../../lib/api-error";
import { editedStudentsRefusal, useUndoImport } from "../../api/undo-import";
import { batchDateText, editedStudentText } from "./recent-imports-text";

interface Props {
  batch: ImportBatch;
  onClose: () => void;
  onDone: (message: string) => void;
}

/**
 * "Undo import": names what will be removed before anything is. When students of the import
 * were edited since, the server refuses and lists them: the coordinator may then undo keeping
 * those students as they are, or cancel; a later edit is never dropped without that choice.
 */
export function UndoImportDialog({ batch, onClose, onDone }: Props) {
  const undo = useUndoImport();
  const [edited, setEdited] = useState<ImportUndoConflict | null>(null);
  const cohort = batch.cohortName ?? "a removed cohort";
  const { summary } = batch;
  const updated = summary.attendanceRecordsUpdated + summary.weeklyDataUpdated;
  const run = (keepEditedStudents: boolean) =>
    undo.mutate(
      { id: batch.id, keepEditedStudents },
      {
        onSuccess: (reply) => {
          onDone(reply.message);
          onClose();
        },
        onError: (error) => {
          const refusal = editedStudentsRefusal(error);
          if (refusal) setEdited(refusal);
        },
      },
    );
  const keptCount = edited?.editedStudentsCount ?? 0;
  const listed = edited?.editedStudents ?? [];
  return (
    <ModalShell title="Undo import" onClose={onClose}>
      <Stack gap="sm">
        {undo.isError ? (
          <Alert color="red" role="alert">
            {errorText(undo.error, "Failed to undo the import. Please try again.")}
          </Alert>
        ) : null}
        {edited ? (
          <>
            <Text size="sm">Edited since the import of {batchDateText(batch.createdAt)}:</Text>
            <List size="sm" spacing={2} aria-label="Students edited since the import">
              {listed.map((student) => (
                <List.Item key={student.id}>{editedStudentText(student)}</List.Item>
              ))}
            </List>
            {keptCount > listed.length ? <Text size="sm">…and {keptCount - listed.length} more.</Text> : null}
            <Text size="sm">
              Undoing keeps {keptCount === 1 ? "this student" : "these students"} as {keptCount === 1 ? "it is" : "they are"} now,
              with their place in the cohort and team and any meeting corrected since; the rest of the import is undone.
            </Text>
          </>
        ) : (
          <>
            <Text size="sm">
              This restores {cohort}, week {batch.weekNumber}, to how it was before the import of {batchDateText(batch.createdAt)}. It
              removes:
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
          </>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={undo.isPending}>
            Cancel
          </Button>
          {edited ? (
            <Button color="red" onClick={() => run(true)} disabled={undo.isPending}>
              {undo.isPending ? "Undoing..." : `Undo, keeping ${keptCount === 1 ? "this student" : `these ${keptCount} students`}`}
            </Button>
          ) : (
            <Button color="red" onClick={() => run(false)} disabled={undo.isPending}>
              {undo.isPending ? "Undoing..." : "Undo import"}
            </Button>
          )}
        </Group>
      </Stack>
    </ModalShell>
  );
}
